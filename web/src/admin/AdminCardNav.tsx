import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';

/** One card of an admin section's menu: where it goes, its icon, title and one line on what it holds. */
export interface AdminCardLink {
  to: string;
  Icon: ComponentType;
  title: string;
  text: string;
}

/** The cards linking to the sections (dashboard, stats hub). */
export function AdminCardNav({ label, cards }: { label: string; cards: readonly AdminCardLink[] }) {
  return (
    <nav aria-label={label}>
      <ul className="grid-list admin-cards">
        {cards.map((card) => (
          <li key={card.to}>
            <Link to={card.to} className="admin-card card">
              <span className="admin-card__icon">
                <card.Icon />
              </span>
              <span className="admin-card__title">{card.title}</span>
              <span className="admin-card__text">{card.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
