import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { errorMessage } from '../api/http';
import { FormError, PasswordField, SubmitButton } from '../shell/ui/Form';
import { useToast } from '../shell/toast';
import { AuthPage, useFormSend } from './AuthPage';
import { confirmPasswordReset } from './authApi';
import { PASSWORD_MIN, PASSWORD_RULE } from './passwordRule';
import { useCurrentUser } from './sessionContext';

const PASSWORD_MISMATCH = '❌ Les mots de passe ne correspondent pas.';
const NO_TOKEN = 'Ce lien est incomplet. Ouvre le lien reçu en entier, ou demande un nouveau lien.';
const RESET_FAILED = "❌ Le mot de passe n'a pas pu être changé.";

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
      (err) => ({ message: errorMessage(err) ?? RESET_FAILED }),
    );
  };

  return (
    <AuthPage
      title="Nouveau mot de passe"
      titleId="reset-title"
      other={<Link to="/mot-de-passe-oublie">Demander un nouveau lien</Link>}
    >
      {!token ? (
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
