import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { Loading } from '../shell/Loading';
import { CardNav, type CardLink } from '../shell/ui/CardNav';
import { TextField } from '../shell/ui/Form';
import './admin.css';

const ADMIN_ONLY = 'Accès réservé aux administrateurs.';

export interface Crumb {
  to: string;
  label: string;
}

interface AdminPageProps {
  title: string;
  /** The pages between the admin home and this one, in the trail above the title (which starts at the admin home). */
  crumbs?: Crumb[];
  /** The admin home itself: no trail. */
  home?: boolean;
  /** Short sentence under the title. */
  intro?: ReactNode;
  /** Buttons on the right of the title. */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * Frame of every admin screen: page title, breadcrumb, heading, and the client-side gate
 * (the product roles and permissions: an admin is the admin address, role admin or is_admin true/1). The server
 * enforces the same rule on every call (401 / 403 'Accès réservé aux administrateurs.').
 */
export function AdminPage({ title, crumbs = [], home = false, intro, actions, children }: AdminPageProps) {
  const { isLoggedIn, isAdmin, checked } = useCurrentUser();
  const headingId = useId();

  // The admin address comes with GET /api/auth/me: wait for it before refusing.
  if (!isAdmin && !checked) return <Loading />;
  if (!isAdmin) return <AccessDenied loggedIn={isLoggedIn} />;

  return (
    <section className="page admin" aria-labelledby={headingId}>
      <title>{`${title} · Admin EVO`}</title>
      {home ? null : (
        <nav aria-label="Fil d'Ariane" className="admin-crumbs">
          <ol>
            {[ADMIN_CRUMB, ...crumbs].map((crumb) => (
              <li key={crumb.to}>
                <Link to={crumb.to}>{crumb.label}</Link>
              </li>
            ))}
            <li aria-current="page">{title}</li>
          </ol>
        </nav>
      )}
      <header className="admin-header">
        <div className="admin-header__text">
          <h1 id={headingId}>{title}</h1>
          {intro ? <p className="admin-header__intro">{intro}</p> : null}
        </div>
        {actions ? <div className="admin-header__actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

function AccessDenied({ loggedIn }: { loggedIn: boolean }) {
  return (
    <section className="page page--center admin-denied" aria-labelledby="admin-denied-title">
      <title>Accès refusé · EVO</title>
      <h1 id="admin-denied-title">Accès refusé</h1>
      <p>{ADMIN_ONLY}</p>
      <div className="form__actions">
        {loggedIn ? null : (
          <Link to="/login" className="btn btn--primary">
            Se connecter
          </Link>
        )}
        <Link to="/" className="btn btn--ghost">
          Retour à l'accueil
        </Link>
      </div>
    </section>
  );
}

/** The root of every admin sub-page's trail. */
const ADMIN_CRUMB: Crumb = { to: '/admin', label: 'Administration' };

/** The search line above an admin list: its field, and how many rows there are (`count`, when known). */
export function AdminSearch({
  id,
  label,
  placeholder,
  value,
  onValue,
  maxLength,
  count,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onValue: (value: string) => void;
  maxLength?: number;
  count: ReactNode;
}) {
  return (
    <div className="admin-toolbar">
      <TextField
        id={id}
        label={label}
        fieldClassName="admin-toolbar__search"
        type="search"
        placeholder={placeholder}
        autoComplete="off"
        maxLength={maxLength}
        value={value}
        onValue={onValue}
      />
      {count !== null ? (
        <p className="admin-toolbar__count" aria-live="polite">
          {count}
        </p>
      ) : null}
    </div>
  );
}

/** "Recharger": asks the list's query again, disabled while it is asked. */
export function ReloadButton({ query }: { query: { refetch: () => unknown; isFetching: boolean } }) {
  return (
    <button
      type="button"
      className="btn btn--secondary btn--small"
      onClick={() => void query.refetch()}
      disabled={query.isFetching}
    >
      Recharger
    </button>
  );
}

/** The cards linking to the sections (dashboard, stats hub). */
export function AdminCardNav({ label, cards }: { label: string; cards: readonly CardLink[] }) {
  return <CardNav label={label} cards={cards} listClassName="grid-list admin-cards" block="admin-card" />;
}
