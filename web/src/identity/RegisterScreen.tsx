import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError, isAbortError } from '../api/http';
import { ProgressBar } from '../shell/ui/ProgressBar';
import { FileField } from '../shell/ui/FileField';
import { FormError } from '../shell/ui/FormError';
import { AuthPage } from './AuthPage';
import { register } from './authApi';
import { returnPathOf, withReturn } from './returnPath';

const PASSWORD_MISMATCH = '❌ Les mots de passe ne correspondent pas.';
const REGISTER_FAILED = "❌ Erreur lors de l'inscription.";
const WRONG_IMAGE = 'Choisissez un fichier image.';
const WRONG_VIDEO = 'Choisissez un fichier vidéo.';

type TextField = 'email' | 'pseudo' | 'password' | 'confirm' | 'bio' | 'videoTitle';

const EMPTY: Record<TextField, string> = { email: '', pseudo: '', password: '', confirm: '', bio: '', videoTitle: '' };

/** the product rule "Register (/register)": every field required, passwords must match, then /login. */
export default function RegisterScreen() {
  const navigate = useNavigate();
  const location = useLocation();
  const [values, setValues] = useState(EMPTY);
  const [profilePic, setProfilePic] = useState<File | null>(null);
  const [video, setVideo] = useState<File | null>(null);
  const [fileError, setFileError] = useState<{ field: 'profilePic' | 'video'; message: string } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<{ message: string; detail?: string } | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  const busy = progress !== null;
  const mismatch = values.confirm !== '' && values.password !== values.confirm;
  const allFilled =
    (Object.keys(EMPTY) as TextField[]).every((key) => values[key].trim() !== '') && !!profilePic && !!video;
  const canSubmit = allFilled && values.password === values.confirm && !busy;

  const setField = (key: TextField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));

  const pickFile =
    (field: 'profilePic' | 'video', kind: 'image/' | 'video/', set: (file: File | null) => void) =>
    (event: ChangeEvent<HTMLInputElement>) => {
      const file = event.target.files?.[0] ?? null;
      if (file && !file.type.startsWith(kind)) {
        event.target.value = '';
        set(null);
        setFileError({ field, message: kind === 'image/' ? WRONG_IMAGE : WRONG_VIDEO });
        return;
      }
      setFileError((current) => (current?.field === field ? null : current));
      set(file);
    };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (values.password !== values.confirm) {
      setError({ message: PASSWORD_MISMATCH });
      return;
    }
    if (!canSubmit || !profilePic || !video) return;
    const controller = new AbortController();
    abortRef.current = controller;
    setError(null);
    setProgress(0);
    try {
      await register(
        {
          email: values.email.trim(),
          pseudo: values.pseudo.trim(),
          password: values.password,
          bio: values.bio.trim(),
          videoTitle: values.videoTitle.trim(),
          profilePic,
          video,
        },
        setProgress,
        controller.signal,
      );
      navigate(withReturn('/login', returnPathOf(location.search)), {
        state: { email: values.email.trim(), registered: true },
      });
    } catch (err) {
      if (isAbortError(err)) return;
      const detail =
        err instanceof ApiError ? (err.serverMessage ?? (err.isNetworkError ? err.message : undefined)) : undefined;
      setError({ message: REGISTER_FAILED, detail });
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      if (!controller.signal.aborted) setProgress(null);
    }
  };

  return (
    <AuthPage title="Créer un compte" titleId="register-title">
      <form className="form" onSubmit={onSubmit} aria-busy={busy}>
        <div className="field">
          <label htmlFor="register-email">Email</label>
          <input
            id="register-email"
            type="email"
            autoComplete="email"
            required
            value={values.email}
            onChange={setField('email')}
          />
        </div>
        <div className="field">
          <label htmlFor="register-pseudo">Pseudo</label>
          <input
            id="register-pseudo"
            type="text"
            autoComplete="username"
            required
            value={values.pseudo}
            onChange={setField('pseudo')}
          />
        </div>
        <div className="field">
          <label htmlFor="register-password">Mot de passe</label>
          <input
            id="register-password"
            type="password"
            autoComplete="new-password"
            required
            value={values.password}
            onChange={setField('password')}
          />
        </div>
        <div className="field">
          <label htmlFor="register-confirm">Confirmer le mot de passe</label>
          <input
            id="register-confirm"
            type="password"
            autoComplete="new-password"
            required
            value={values.confirm}
            onChange={setField('confirm')}
            aria-invalid={mismatch}
            aria-describedby={mismatch ? 'register-confirm-error' : undefined}
          />
          {mismatch ? (
            <p id="register-confirm-error" className="field__error" role="alert">
              {PASSWORD_MISMATCH}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="register-bio">Bio</label>
          <textarea id="register-bio" rows={3} required value={values.bio} onChange={setField('bio')} />
        </div>
        <FileField
          id="register-picture"
          label="Photo de profil"
          accept="image/*"
          required
          fileName={profilePic?.name ?? null}
          onChange={pickFile('profilePic', 'image/', setProfilePic)}
          error={fileError?.field === 'profilePic' ? fileError.message : null}
        />
        <FileField
          id="register-video"
          label="Vidéo"
          accept="video/*"
          required
          fileName={video?.name ?? null}
          onChange={pickFile('video', 'video/', setVideo)}
          error={fileError?.field === 'video' ? fileError.message : null}
        />
        <div className="field">
          <label htmlFor="register-video-title">Titre de la vidéo</label>
          <input
            id="register-video-title"
            type="text"
            required
            value={values.videoTitle}
            onChange={setField('videoTitle')}
          />
        </div>
        {busy ? <ProgressBar value={progress ?? 0} label="Envoi de l'inscription" /> : null}
        {error ? <FormError message={error.message} detail={error.detail} /> : null}
        <button type="submit" className="btn btn--primary btn--block" disabled={!canSubmit}>
          {busy ? 'Création du compte...' : 'Créer mon compte'}
        </button>
        {!allFilled && !busy ? <p className="form__hint">Tous les champs sont obligatoires.</p> : null}
      </form>
      <p className="auth__switch">
        Déjà inscrit ? <Link to={withReturn('/login', returnPathOf(location.search))}>Se connecter</Link>
      </p>
    </AuthPage>
  );
}
