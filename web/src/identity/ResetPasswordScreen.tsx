import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PasswordResetNotLoggedInAnswer } from '@evo/contracts';
import { ApiError, errorMessage } from '../api/http';
import { FormError, PasswordField, SubmitButton } from '../shell/ui/Form';
import { useToast } from '../shell/toast';
import { AuthPage, useFormSend } from './AuthPage';
import { confirmPasswordReset } from './authApi';
import { PASSWORD_MIN, PASSWORD_RULE } from './passwordRule';
import { useCurrentUser } from './sessionContext';

const PASSWORD_MISMATCH = '❌ Les mots de passe ne correspondent pas.';
const NO_TOKEN = 'Ce lien est incomplet. Ouvre le lien reçu en entier, ou demande un nouveau lien.';
const RESET_FAILED = "❌ Le mot de passe n'a pas pu être changé.";

/** The server's answer when the new password is set but this browser could not be logged in. */
function changedNotLoggedIn(err: unknown): PasswordResetNotLoggedInAnswer | undefined {
  if (!(err instanceof ApiError) || err.status !== 503) return undefined;
  const answer = PasswordResetNotLoggedInAnswer.safeParse(err.data);
  return answer.success ? answer.data : undefined;
}

/**
 * The page a reset link opens (/nouveau-mot-de-passe#<token>; the token stays in the fragment, which
 * no server sees): a new password twice, then the member lands on their profile, logged in.
 */
export default function ResetPasswordScreen() {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const { signIn } = useCurrentUser();
  const token = decodeURIComponent(location.hash.replace(/^#/, ''));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [tried, setTried] = useState(false);
  // the link has served: the page says so and leads to the login instead of its form
  const [changed, setChanged] = useState<PasswordResetNotLoggedInAnswer | null>(null);
  const { busy, error, setError, send } = useFormSend();
  const tooShort = password.length < PASSWORD_MIN;
  const mismatch = confirm !== '' && password !== confirm;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setTried(true);
    if (tooShort) {
      document.getElementById('reset-password')?.focus();
      return;
    }
    if (password !== confirm) {
      setError({ message: PASSWORD_MISMATCH });
      document.getElementById('reset-confirm')?.focus();
      return;
    }
    await send(
      async () => {
        const { message, ...user } = await confirmPasswordReset(token, password);
        signIn(user);
        toast.success(message);
        navigate(user.pseudo ? `/user/${encodeURIComponent(user.pseudo)}` : '/profile', { replace: true });
      },
      (err) => {
        const done = changedNotLoggedIn(err);
        if (done) setChanged(done);
        return { message: errorMessage(err) ?? RESET_FAILED };
      },
    );
  };

  return (
    <AuthPage
      title="Nouveau mot de passe"
      titleId="reset-title"
      other={
        changed ? (
          <Link to="/">Retour à l'accueil</Link>
        ) : (
          <Link to="/mot-de-passe-oublie">Demander un nouveau lien</Link>
        )
      }
    >
      {changed ? (
        <div className="auth__done">
          <p className="alert alert--success" role="status">
            {changed.error}
          </p>
          <Link to="/login" state={{ email: changed.email }} className="btn btn--primary btn--block">
            Se connecter
          </Link>
        </div>
      ) : !token ? (
        <FormError message={NO_TOKEN} />
      ) : (
        <form className="form" onSubmit={onSubmit} aria-busy={busy} noValidate>
          <PasswordField
            choosing
            id="reset-password"
            label="Nouveau mot de passe"
            value={password}
            onValue={setPassword}
            invalid={tried && tooShort}
            note={{ id: 'reset-password-rule', text: PASSWORD_RULE, error: tried && tooShort }}
          />
          <PasswordField
            choosing
            id="reset-confirm"
            label="Confirme le mot de passe"
            value={confirm}
            onValue={setConfirm}
            invalid={mismatch}
          />
          {error ? <FormError message={error.message} detail={error.detail} /> : null}
          <SubmitButton busy={busy} busyLabel="Enregistrement..." label="Changer mon mot de passe" />
        </form>
      )}
    </AuthPage>
  );
}
