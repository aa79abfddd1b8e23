import { Link, NavLink } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { NotificationMenu } from '../notifications/NotificationMenu';
import { topBarProfilePath } from './paths';
import { ProfilePicture } from './ui/ProfilePicture';

/** SPEC.md §2 "Navigation": dark bar, light on /admin paths. */
export function TopBar({ light }: { light: boolean }) {
  const { user, isAdmin, signOut } = useCurrentUser();
  const profile = topBarProfilePath(user);

  return (
    <header className={light ? 'topbar topbar--light' : 'topbar topbar--dark'}>
      <div className="topbar__row">
        <Link to="/" className="brand">
          EVO
        </Link>
        {/* in the DOM between the logo and the bell: keyboard focus follows the reading order */}
        <nav className="topbar__nav" aria-label="Navigation principale">
          <ul>
            <li>
              <NavLink to="/friends">Amis</NavLink>
            </li>
            <li>
              <NavLink to="/feed">Pour toi</NavLink>
            </li>
            <li>
              <NavLink to={profile} end>
                Mon profil
              </NavLink>
            </li>
            <li>
              <NavLink to="/messages">Messages</NavLink>
            </li>
            <li>
              <NavLink to="/coffre">Coffre</NavLink>
            </li>
            {isAdmin ? (
              <li>
                <NavLink to="/admin">Admin</NavLink>
              </li>
            ) : null}
          </ul>
        </nav>
        <div className="topbar__actions">
          {user ? (
            <>
              <NotificationMenu />
              <ProfilePicture pseudo={user.pseudo || user.email} profilePicture={user.profile_picture} size={40} />
              <button type="button" className="btn btn--small btn--outline" onClick={() => void signOut()}>
                Déconnexion
              </button>
            </>
          ) : (
            <>
              <Link to="/login" className="btn btn--small btn--outline">
                Se connecter
              </Link>
              <Link to="/register" className="btn btn--small btn--primary">
                Créer un compte
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
