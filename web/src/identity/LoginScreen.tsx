import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError, InvalidAnswerError } from '../api/http';
import { EmailField, FormError, PasswordField, SubmitButton } from '../shell/ui/Form';
import { AuthPage, useFormSend, type FormFailure } from './AuthPage';
import { login } from './authApi';
import { returnPathOf, withReturn } from './returnPath';
import { isAdmin, type CurrentUser } from './session';
import { useCurrentUser } from './sessionContext';

/** the product validation rules, "Login": a wrong email or password (and an answer without an email) */
const BAD_CREDENTIALS = 'Email ou mot de passe incorrect.';
/** the product error catalogue, "Auth": only when the server did not answer, or failed */
const LOGIN_FAILED = "❌ Impossible de se connecter. Vérifie tes identifiants ou l'état du serveur.";
const NO_ANSWER = 'Le serveur ne répond pas : vérifie ta connexion à Internet, puis réessaie.';

const REGISTER_OK = '✅ Compte créé avec succès ! Vous pouvez vous connecter.';

/**
 * What a failed login says. The member's own mistake (a wrong email or password, too many tries) is
 * said as such and never blames the server; only no answer or a server failure says it may be the server.
 */
function loginErrorOf(err: unknown): FormFailure {
  if (err instanceof ApiError && !err.isNetworkError && err.status < 500) {
    return { message: err.status === 401 ? BAD_CREDENTIALS : (err.serverMessage ?? BAD_CREDENTIALS) };
  }
  // an answer that is not a session (no email): SPEC's alert for it
  if (err instanceof InvalidAnswerError) return { message: BAD_CREDENTIALS };
  const detail = err instanceof ApiError ? (err.isNetworkError ? NO_ANSWER : err.serverMessage) : undefined;
  return { message: LOGIN_FAILED, detail };
}

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
  const { busy, error, setError, send } = useFormSend();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      setError({ message: BAD_CREDENTIALS });
      return;
    }
    await send(async () => {
      const user = await login(email.trim(), password);
      signIn(user);
      navigate(landingPath(user, adminEmail, location.search), { replace: true });
    }, loginErrorOf);
  };

  return (
    <AuthPage
      title="Connexion"
      titleId="login-title"
      other={
        <>
          Pas encore de compte ?{' '}
          <Link to={withReturn('/register', returnPathOf(location.search))}>Créer un compte</Link>
        </>
      }
    >
      {registered ? (
        <p className="alert alert--success" role="status">
          {REGISTER_OK}
        </p>
      ) : null}
      <form className="form" onSubmit={onSubmit} aria-busy={busy}>
        <EmailField id="login-email" value={email} onValue={setEmail} />
        <PasswordField id="login-password" label="Mot de passe" value={password} onValue={setPassword} />
        <p className="auth__forgot">
          <Link to="/mot-de-passe-oublie" state={{ email: email.trim() }}>
            Mot de passe oublié ?
          </Link>
        </p>
        {error ? <FormError message={error.message} detail={error.detail} /> : null}
        <SubmitButton busy={busy} busyLabel="Connexion..." label="Se connecter" />
      </form>
    </AuthPage>
  );
}
