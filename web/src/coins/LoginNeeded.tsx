import { Link } from 'react-router-dom';

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
