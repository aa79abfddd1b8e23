import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { errorMessage } from '../api/http';
import { EmailField, FormError, SubmitButton } from '../shell/ui/Form';
import { AuthPage, useFormSend } from './AuthPage';
import { askPasswordReset } from './authApi';

const EMAIL_MISSING = 'Indique ton email.';
const ASK_FAILED = "❌ La demande n'a pas pu être envoyée.";

/**
 * "Mot de passe oublié ?": the member gives their email and gets a link (by email, or from an
 * administrator). The answer is the same whether the email is known or not.
 */
export default function ForgotPasswordScreen() {
  const location = useLocation();
  const prefill = (location.state as { email?: unknown } | null)?.email;
  const [email, setEmail] = useState(typeof prefill === 'string' ? prefill : '');
  const [sent, setSent] = useState<string | null>(null);
  const { busy, error, setError, send } = useFormSend();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim()) {
      setError({ message: EMAIL_MISSING });
      document.getElementById('forgot-email')?.focus();
      return;
    }
    await send(
      async () => setSent((await askPasswordReset(email.trim())).message),
      (err) => ({ message: ASK_FAILED, detail: errorMessage(err) }),
    );
  };

  return (
    <AuthPage title="Mot de passe oublié" titleId="forgot-title" other={<Link to="/login">Retour à la connexion</Link>}>
      {sent ? (
        <p className="alert alert--success" role="status">
          {sent}
        </p>
      ) : (
        <form className="form" onSubmit={onSubmit} aria-busy={busy} noValidate>
          <p className="auth__lead">
            Indique l’email de ton compte : on t’envoie un lien pour choisir un nouveau mot de passe.
          </p>
          <EmailField id="forgot-email" value={email} onValue={setEmail} />
          {error ? <FormError message={error.message} detail={error.detail} /> : null}
          <SubmitButton busy={busy} busyLabel="Envoi..." label="Recevoir un lien" />
        </form>
      )}
    </AuthPage>
  );
}
