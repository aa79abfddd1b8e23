import type { ReactNode } from 'react';

export interface StatItem {
  label: string;
  value: ReactNode;
  /** Smaller line under the value. */
  detail?: ReactNode;
}

/** Figures as a grid of labelled cards (a description list for screen readers). */
export function StatGrid({ items, label }: { items: StatItem[]; label: string }) {
  return (
    <dl className="admin-stats" aria-label={label}>
      {items.map((item) => (
        <div key={item.label} className="admin-stat card">
          <dt>{item.label}</dt>
          <dd className="admin-stat__value">{item.value}</dd>
          {item.detail ? <dd className="admin-stat__detail">{item.detail}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
