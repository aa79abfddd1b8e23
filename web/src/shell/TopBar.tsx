import { useId, type ComponentType } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { withReturn } from '../identity/returnPath';
import { useCurrentUser } from '../identity/sessionContext';
import { NotificationMenu } from '../notifications/NotificationMenu';
import { topBarProfilePath } from './paths';
import { useDisclosure } from './useDisclosure';
import {
  CompassIcon,
  FriendsIcon,
  HomeIcon,
  LogoutIcon,
  MenuIcon,
  MessageIcon,
  ShieldIcon,
  UserIcon,
  VaultIcon,
  XIcon,
  type IconProps,
} from './ui/icons';
import { ProfilePicture } from './ui/ProfilePicture';
import { SearchBox } from '../search/SearchBox';

interface Destination {
  to: string;
  label: string;
  Icon: ComponentType<IconProps>;
  end?: boolean;
  /** only in the mobile menu (the desktop bar has the brand for it) */
  mobileOnly?: boolean;
}

/**
 * the product screens, "Navigation": dark bar, light on /admin paths. On a wide screen its links sit in the
 * bar; on a narrow one (below 820 px) they fold into one "Menu" panel under the bar, with the
 * logout button, so that nothing is cut off and the only other navigation is the bottom bar.
 */
export function TopBar({ light }: { light: boolean }) {
  const { user, isAdmin, signOut } = useCurrentUser();
  const menu = useDisclosure<HTMLElement>();
  const location = useLocation();
  const here = `${location.pathname}${location.search}${location.hash}`;
  const navId = useId();

  // A visitor has no profile, messages or vault: those links (and "Mon profil"'s fall-back to the
  // admin area, which SPEC gives a member with no stored pseudo) are for members; the visitor gets
  // 'Se connecter' and 'Créer un compte' instead.
  const destinations: Destination[] = [
    { to: '/', label: 'Accueil', Icon: HomeIcon, end: true, mobileOnly: true },
    { to: '/friends', label: 'Amis', Icon: FriendsIcon },
    { to: '/feed', label: 'Pour toi', Icon: CompassIcon },
    ...(user
      ? [
          { to: topBarProfilePath(user), label: 'Mon profil', Icon: UserIcon, end: true },
          { to: '/messages', label: 'Messages', Icon: MessageIcon },
          { to: '/coffre', label: 'Coffre', Icon: VaultIcon },
        ]
      : []),
    ...(isAdmin ? [{ to: '/admin', label: 'Admin', Icon: ShieldIcon }] : []),
  ];

  const classes = ['topbar', light ? 'topbar--light' : 'topbar--dark'];
  if (user) classes.push('topbar--member');
  if (menu.open) classes.push('topbar--open');

  return (
    <header className={classes.join(' ')} ref={menu.rootRef}>
      <div className="topbar__row">
        {user ? (
          // first in the reading order: it opens the links that follow it (hidden on wide screens)
          <button
            ref={menu.buttonRef}
            type="button"
            className="icon-button topbar__toggle"
            aria-expanded={menu.open}
            aria-controls={navId}
            aria-label="Menu"
            onClick={menu.toggle}
          >
            {menu.open ? <XIcon /> : <MenuIcon />}
          </button>
        ) : null}
        <Link to="/" className="brand">
          EVO
        </Link>
        {/* in the DOM between the logo and the bell: keyboard focus follows the reading order */}
        <nav id={navId} className="topbar__nav" aria-label="Navigation principale">
          <ul>
            {user ? (
              <li className="topbar__mobile-only topbar__search-item">
                <SearchBox id={`${navId}-search`} onDone={menu.close} />
              </li>
            ) : null}
            {destinations.map(({ to, label, Icon, end, mobileOnly }) => (
              <li key={label} className={mobileOnly ? 'topbar__mobile-only' : undefined}>
                <NavLink to={to} end={end} onClick={menu.close}>
                  <Icon size={20} />
                  <span>{label}</span>
                </NavLink>
              </li>
            ))}
            {user ? (
              <li className="topbar__mobile-only">
                <button type="button" className="topbar__logout" onClick={() => void signOut()}>
                  <LogoutIcon size={20} />
                  <span>Déconnexion</span>
                </button>
              </li>
            ) : null}
          </ul>
        </nav>
        {/* the bell, the picture: using them closes the menu panel */}
        <div className="topbar__actions" onPointerDown={menu.close}>
          {user ? (
            <>
              <div className="topbar__desktop-only topbar__search-wide">
                <SearchBox id={`${navId}-search-wide`} />
              </div>
              <NotificationMenu />
              <ProfilePicture pseudo={user.pseudo || user.email} profilePicture={user.profile_picture} size={40} />
              <button
                type="button"
                className="btn btn--small btn--outline topbar__desktop-only"
                onClick={() => void signOut()}
              >
                Déconnexion
              </button>
            </>
          ) : (
            <>
              {/* both come back here afterwards (a shared video, a feed…) */}
              <Link to={withReturn('/login', here)} className="btn btn--small btn--outline">
                Se connecter
              </Link>
              <Link to={withReturn('/register', here)} className="btn btn--small btn--primary">
                Créer un compte
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
