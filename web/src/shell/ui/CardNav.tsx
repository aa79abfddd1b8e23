import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';

/** One card of a menu of sections: where it goes, its icon, title and one line on what it holds. */
export interface CardLink {
  to: string;
  Icon: ComponentType<{ size?: number }>;
  title: string;
  text: string;
}

/**
 * A menu of sections as cards (the back-office's dashboard and stats hub, the vault's tiles):
 * `block` names the look of each card and of its icon, title and text (`admin-card`, `vault-tile`).
 */
export function CardNav({
  label,
  cards,
  listClassName,
  block,
  iconSize,
}: {
  label: string;
  cards: readonly CardLink[];
  listClassName: string;
  block: string;
  iconSize?: number;
}) {
  return (
    <nav aria-label={label}>
      <ul className={listClassName}>
        {cards.map((card) => (
          <li key={card.to}>
            <Link to={card.to} className={`${block} card`}>
              <span className={`${block}__icon`}>
                <card.Icon size={iconSize} />
              </span>
              <span className={`${block}__title`}>{card.title}</span>
              <span className={`${block}__text`}>{card.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
