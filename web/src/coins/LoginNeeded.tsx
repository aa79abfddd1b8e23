import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { CurrentUser } from '../identity/session';
import { useCurrentUser } from '../identity/sessionContext';

/** the product validation rules, "Vault page" while not logged in (also used by the other coin pages). */
export const LOGIN_NEEDED = '❌ Connecte-toi pour accéder à cette page.';

export function LoginNeeded({ message = LOGIN_NEEDED }: { message?: string }) {
  return (
    <div className="coins-login card" role="alert">
      <p>{message}</p>
      <Link to="/login" className="btn btn--primary">
        Se connecter
      </Link>
    </div>
  );
}

/**
 * The frame of a coin or gift page: its title (also the tab's), its intro, then `children`; a page for
 * members (`member`) then shows what it has for the logged-in member, and to a visitor that they must log in.
 */
export function CoinsPage({
  titleId,
  title,
  intro,
  member,
  children,
}: {
  titleId: string;
  title: string;
  intro?: string;
  member?: (user: CurrentUser) => ReactNode;
  children?: ReactNode;
}) {
  const { user } = useCurrentUser();
  return (
    <section className="page coins" aria-labelledby={titleId}>
      <title>{`${title} · EVO`}</title>
      <header className="coins__header">
        <h1 id={titleId}>{title}</h1>
        {intro ? <p>{intro}</p> : null}
      </header>
      {children}
      {member ? user ? member(user) : <LoginNeeded /> : null}
    </section>
  );
}
