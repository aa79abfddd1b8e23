import { NavLink } from 'react-router-dom';

/**
 * "Amis | Pour toi" at the top of the feed screens: one tap from one to the other, on a phone too
 * (where the top bar's links fold into the menu). Links, not tabs: each is its own page.
 */
export function FeedSwitch({ dark = false }: { dark?: boolean }) {
  return (
    <nav className={dark ? 'feed-switch feed-switch--dark' : 'feed-switch'} aria-label="Fils de vidéos">
      <NavLink to="/friends" className="feed-switch__link">
        Amis
      </NavLink>
      <span className="feed-switch__sep" aria-hidden="true">
        |
      </span>
      <NavLink to="/feed" className="feed-switch__link">
        Pour toi
      </NavLink>
    </nav>
  );
}
