import { useId } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { profilePath } from './paths';
import { useDisclosure } from './useDisclosure';
import { ADD_CHOICES, opensOwnDocument } from './addChoices';
import { FriendsIcon, HomeIcon, MessageIcon, PlusIcon, UserIcon } from './ui/icons';

const ADD_PATHS = ['/upload', '/upload/video', '/create'];

/**
 * Fixed bottom bar (mobile first): Accueil, Ami(e)s, add, Messages, Profil; light on /admin pages.
 * The add button opens a small sheet offering both ways to add a video.
 */
export function BottomBar({ light = false }: { light?: boolean }) {
  const { user } = useCurrentUser();
  const { pathname } = useLocation();
  const add = useDisclosure<HTMLLIElement>();
  const sheetId = useId();
  const adding = ADD_PATHS.includes(pathname);

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
        <li className="bottombar__add-item" ref={add.rootRef}>
          <button
            ref={add.buttonRef}
            type="button"
            className={adding ? 'bottombar__add active' : 'bottombar__add'}
            aria-label="Ajouter une vidéo"
            aria-expanded={add.open}
            aria-controls={sheetId}
            onClick={add.toggle}
          >
            <PlusIcon size={28} />
          </button>
          <div id={sheetId} className="add-sheet" hidden={!add.open}>
            <p className="add-sheet__title">Ajouter une vidéo</p>
            <ul>
              {ADD_CHOICES.map(({ to, label, hint, Icon }) => (
                <li key={to}>
                  <Link to={to} reloadDocument={opensOwnDocument(to)} className="add-sheet__choice" onClick={add.close}>
                    <Icon size={26} />
                    <span>
                      <span className="add-sheet__label">{label}</span>
                      <span className="add-sheet__hint">{hint}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
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
