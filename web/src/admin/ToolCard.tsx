import { useId, type ComponentType, type ReactNode } from 'react';

/** One tool of /admin/tools: its icon and title, what it does, then its controls (`children`). */
export function ToolCard({
  Icon,
  title,
  text,
  badge,
  children,
}: {
  Icon: ComponentType<{ className?: string }>;
  title: string;
  text: ReactNode;
  /** said beside the title; a tool with one is still to come (drawn faded) */
  badge?: ReactNode;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <article className={badge ? 'tool-card tool-card--soon card' : 'tool-card card'} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="tool-card__title">
        <Icon className="tool-card__icon" />
        {title}
      </h2>
      {badge}
      <p className="tool-card__text">{text}</p>
      {children}
    </article>
  );
}
