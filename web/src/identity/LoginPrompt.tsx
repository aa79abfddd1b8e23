import { Link, useLocation } from 'react-router-dom';
import { withReturn } from './returnPath';

export const LOG_IN = 'Se connecter';
export const SIGN_UP = 'Créer un compte';

/** SPEC's words for a visitor on a members' screen */
export const NOT_LOGGED_IN = 'Utilisateur non connecté';

/**
 * What a visitor meets where a screen is for members: why (`message`, SPEC's 'Utilisateur non
 * connecté' unless the screen says more), and the two ways in, each coming back to this very page.
 */
export function LoginPrompt({ message = NOT_LOGGED_IN, tone = 'info' }: { message?: string; tone?: 'info' | 'error' }) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}${location.hash}`;
  return (
    <div className={`login-prompt card login-prompt--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <p className="login-prompt__text">{message}</p>
      <div className="login-prompt__actions">
        <Link to={withReturn('/login', here)} className="btn btn--primary">
          {LOG_IN}
        </Link>
        <Link to={withReturn('/register', here)} className="btn btn--secondary">
          {SIGN_UP}
        </Link>
      </div>
    </div>
  );
}
