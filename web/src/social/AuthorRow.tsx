import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { userPath } from './format';

/** Author picture + @pseudo (link to the profile) + actions, at the top of a card. */
export function AuthorRow({
  pseudo,
  profilePicture,
  subtitle,
  children,
}: {
  pseudo: string;
  profilePicture: string | null;
  subtitle?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="author-row">
      <Link to={userPath(pseudo)} className="author-row__picture" tabIndex={-1} aria-hidden="true">
        <ProfilePicture pseudo={pseudo} profilePicture={profilePicture} size={44} alt="" />
      </Link>
      <div className="author-row__text">
        <Link to={userPath(pseudo)} className="author-row__pseudo">
          @{pseudo}
        </Link>
        {subtitle ? <span className="author-row__subtitle">{subtitle}</span> : null}
      </div>
      {children ? <div className="author-row__actions">{children}</div> : null}
    </div>
  );
}

/** The small "Profil" button of the feeds and suggestions. */
export function ProfileLinkButton({ pseudo }: { pseudo: string }) {
  return (
    <Link to={userPath(pseudo)} className="btn btn--secondary btn--small" aria-label={`Profil de @${pseudo}`}>
      Profil
    </Link>
  );
}
