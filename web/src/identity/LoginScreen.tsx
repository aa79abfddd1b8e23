import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError, InvalidAnswerError, isAbortError } from '../api/http';
import { FormError } from '../shell/ui/FormError';
import { AuthPage } from './AuthPage';
import { login } from './authApi';
import { returnPathOf, withReturn } from './returnPath';
import { isAdmin, type CurrentUser } from './session';
import { useCurrentUser } from './sessionContext';

const BAD_CREDENTIALS = 'Email ou mot de passe incorrect.';
const LOGIN_FAILED = "❌ Impossible de se connecter. Vérifie tes identifiants ou l'état du serveur.";

interface LoginError {
  message: string;
  detail?: string;
}

const REGISTER_OK = '✅ Compte créé avec succès ! Vous pouvez vous connecter.';

/** After login: the page the visitor asked for, else /admin for an administrator, else their profile. */
function landingPath(user: CurrentUser, adminEmail: string | null, search: string): string {
  const asked = returnPathOf(search);
  if (asked) return asked;
  if (isAdmin(user, adminEmail)) return '/admin';
  return user.pseudo ? `/user/${encodeURIComponent(user.pseudo)}` : '/profile';
}

/**
 * the product rule "Login (/login)": on success stores the user and goes to /user/{pseudo}, or back to the
 * page the visitor was asked to log in for (`?retour=`), or to /admin for an administrator.
 */
export default function LoginScreen() {
  const { signIn, adminEmail } = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as { email?: unknown; registered?: unknown } | null;
  const prefill = state?.email;
  // said here, not in a toast that would outlive the page and cover the menu after login
  const registered = state?.registered === true;
  const [email, setEmail] = useState(typeof prefill === 'string' ? prefill : '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<LoginError | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      setError({ message: BAD_CREDENTIALS });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const user = await login(email.trim(), password);
      signIn(user);
      navigate(landingPath(user, adminEmail, location.search), { replace: true });
    } catch (err) {
      if (isAbortError(err)) return;
      const detail =
        err instanceof ApiError && !err.isNetworkError
          ? err.serverMessage
          : err instanceof InvalidAnswerError
            ? err.message
            : undefined;
      setError({ message: LOGIN_FAILED, detail });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthPage title="Connexion" titleId="login-title">
      {registered ? (
        <p className="alert alert--success" role="status">
          {REGISTER_OK}
        </p>
      ) : null}
      <form className="form" onSubmit={onSubmit} aria-busy={busy}>
        <div className="field">
          <label htmlFor="login-email">Email</label>
          <input
            id="login-email"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">Mot de passe</label>
          <input
            id="login-password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <p className="auth__forgot">
          <Link to="/mot-de-passe-oublie" state={{ email: email.trim() }}>
            Mot de passe oublié ?
          </Link>
        </p>
        {error ? <FormError message={error.message} detail={error.detail} /> : null}
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {busy ? 'Connexion...' : 'Se connecter'}
        </button>
      </form>
      <p className="auth__switch">
        Pas encore de compte ? <Link to={withReturn('/register', returnPathOf(location.search))}>Créer un compte</Link>
      </p>
    </AuthPage>
  );
}
