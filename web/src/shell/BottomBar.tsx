import { NavLink } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { profilePath } from './paths';
import { FriendsIcon, HomeIcon, MessageIcon, PlusIcon, UserIcon } from './ui/icons';

/** Fixed bottom bar (mobile first): Accueil, Ami(e)s, add, Messages, Profil; light on /admin pages. */
export function BottomBar({ light = false }: { light?: boolean }) {
  const { user } = useCurrentUser();
  return (
    <nav className={light ? 'bottombar bottombar--light' : 'bottombar'} aria-label="Barre de navigation">
      <ul>
        <li>
          <NavLink to="/" end>
            <HomeIcon />
            <span>Accueil</span>
          </NavLink>
        </li>
        <li>
          <NavLink to="/friends">
            <FriendsIcon />
            <span>Ami(e)s</span>
          </NavLink>
        </li>
        <li>
          <NavLink to="/upload" className="bottombar__add" aria-label="Ajouter une vidéo">
            <PlusIcon size={28} />
          </NavLink>
        </li>
        <li>
          <NavLink to="/messages">
            <MessageIcon />
            <span>Messages</span>
          </NavLink>
        </li>
        <li>
          <NavLink to={profilePath(user)} end>
            <UserIcon />
            <span>Profil</span>
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
