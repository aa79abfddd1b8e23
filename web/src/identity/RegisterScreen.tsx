import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ApiError, isAbortError } from '../api/http';
import { ProgressBar } from '../shell/ui/ProgressBar';
import { FileField } from '../shell/ui/FileField';
import {
  type FieldNote,
  FormError,
  PasswordField,
  TextAreaField,
  TextField,
  type TextFieldProps,
} from '../shell/ui/Form';
import { AuthPage } from './AuthPage';
import { login, register } from './authApi';
import { returnPathOf, withReturn } from './returnPath';
import { useCurrentUser } from './sessionContext';
import { useToast } from '../shell/toast';
import { PASSWORD_MIN, PASSWORD_RULE } from './passwordRule';

const PASSWORD_MISMATCH = '❌ Les mots de passe ne correspondent pas.';
const REGISTER_FAILED = "❌ Erreur lors de l'inscription.";
const WRONG_IMAGE = 'Choisis un fichier image.';
const WRONG_VIDEO = 'Choisis un fichier vidéo.';
/** SPEC's success message, shown as the new member lands on their profile, logged in */
const REGISTER_OK = '✅ Compte créé avec succès ! Vous pouvez vous connecter.';

/** what each field says when it is left empty (SPEC: every field is required) */
const MISSING: Record<TextKey | 'profilePic' | 'video', string> = {
  email: 'Indique ton email.',
  pseudo: 'Choisis un pseudo.',
  password: 'Choisis un mot de passe.',
  confirm: 'Confirme ton mot de passe.',
  bio: 'Écris une bio (une phrase suffit).',
  profilePic: 'Choisis une photo de profil.',
  video: 'Choisis une vidéo.',
  videoTitle: 'Donne un titre à ta vidéo.',
};
const FIELD_IDS: Record<keyof typeof MISSING, string> = {
  email: 'register-email',
  pseudo: 'register-pseudo',
  password: 'register-password',
  confirm: 'register-confirm',
  bio: 'register-bio',
  profilePic: 'register-picture',
  video: 'register-video',
  videoTitle: 'register-video-title',
};

type TextKey = 'email' | 'pseudo' | 'password' | 'confirm' | 'bio' | 'videoTitle';

const EMPTY: Record<TextKey, string> = { email: '', pseudo: '', password: '', confirm: '', bio: '', videoTitle: '' };

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

  const { signIn } = useCurrentUser();
  const toast = useToast();
  /** once a submit was tried: each empty field says so next to it */
  const [tried, setTried] = useState(false);
  const busy = progress !== null;
  const mismatch = values.confirm !== '' && values.password !== values.confirm;
  const missing = (Object.keys(MISSING) as Array<keyof typeof MISSING>).filter((key) =>
    key === 'profilePic' ? !profilePic : key === 'video' ? !video : values[key].trim() === '',
  );
  const tooShort = values.password !== '' && values.password.length < PASSWORD_MIN;
  const missingMessage = (key: keyof typeof MISSING) => (tried && missing.includes(key) ? MISSING[key] : null);
  /** the text field's "missing" note; `described`: the input names it */
  const missingNote = (key: TextKey, described = true): FieldNote | null => {
    const text = missingMessage(key);
    return text === null ? null : { id: described ? `${FIELD_IDS[key]}-missing` : undefined, text, error: true };
  };
  const bioNote = missingNote('bio');
  const passwordWrong = missingMessage('password') !== null || (tried && tooShort);

  const setField = (key: TextKey) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));

  /** a one-line text field that says, once a submit was tried, that it is empty */
  const requiredText = (key: 'email' | 'pseudo' | 'videoTitle', label: string, input: Partial<TextFieldProps>) => (
    <TextField
      id={FIELD_IDS[key]}
      label={label}
      required
      value={values[key]}
      onChange={setField(key)}
      invalid={missingNote(key) !== null}
      note={missingNote(key)}
      {...input}
    />
  );

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

  /** a file field that refuses a file of the wrong kind and says, once a submit was tried, that it is empty */
  const requiredFile = (
    field: 'profilePic' | 'video',
    label: string,
    kind: 'image/' | 'video/',
    file: File | null,
    set: (file: File | null) => void,
  ) => (
    <FileField
      id={FIELD_IDS[field]}
      label={label}
      accept={`${kind}*`}
      required
      fileName={file?.name ?? null}
      onChange={pickFile(field, kind, set)}
      error={fileError?.field === field ? fileError.message : missingMessage(field)}
    />
  );

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setTried(true);
    if (missing.length > 0 || tooShort) {
      // the first field to fix gets the focus; each says what it needs
      document.getElementById(FIELD_IDS[missing[0] ?? 'password'])?.focus();
      return;
    }
    if (values.password !== values.confirm) {
      setError({ message: PASSWORD_MISMATCH });
      document.getElementById('register-confirm')?.focus();
      return;
    }
    if (!profilePic || !video) return;
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
      // logged in at once: where the visitor was going, else their new profile
      try {
        const user = await login(values.email.trim(), values.password);
        signIn(user);
        toast.success(REGISTER_OK);
        const pseudo = user.pseudo || values.pseudo.trim();
        navigate(returnPathOf(location.search) ?? `/user/${encodeURIComponent(pseudo)}`, { replace: true });
      } catch {
        // created, but the login failed (limits, network): the login page, as SPEC has it
        navigate(withReturn('/login', returnPathOf(location.search)), {
          state: { email: values.email.trim(), registered: true },
        });
      }
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
    <AuthPage
      title="Créer un compte"
      titleId="register-title"
      other={
        <>
          Déjà inscrit ? <Link to={withReturn('/login', returnPathOf(location.search))}>Se connecter</Link>
        </>
      }
    >
      <form className="form" onSubmit={onSubmit} aria-busy={busy} noValidate>
        {requiredText('email', 'Email', { type: 'email', autoComplete: 'email' })}
        {requiredText('pseudo', 'Pseudo', { type: 'text', autoComplete: 'username' })}
        <PasswordField
          choosing
          id="register-password"
          label="Mot de passe"
          required
          value={values.password}
          onChange={setField('password')}
          invalid={passwordWrong}
          note={{
            id: 'register-password-rule',
            text: missingMessage('password') ?? PASSWORD_RULE,
            error: passwordWrong,
          }}
        />
        <PasswordField
          choosing
          id="register-confirm"
          label="Confirmer le mot de passe"
          required
          value={values.confirm}
          onChange={setField('confirm')}
          invalid={mismatch || missingMessage('confirm') !== null}
          note={
            mismatch
              ? { id: 'register-confirm-error', text: PASSWORD_MISMATCH, error: true, alert: true }
              : missingNote('confirm', false)
          }
        />
        <TextAreaField
          id="register-bio"
          label="Bio"
          rows={3}
          required
          value={values.bio}
          onChange={setField('bio')}
          invalid={bioNote !== null}
          note={bioNote}
        />
        {requiredFile('profilePic', 'Photo de profil', 'image/', profilePic, setProfilePic)}
        {requiredFile('video', 'Vidéo', 'video/', video, setVideo)}
        {requiredText('videoTitle', 'Titre de la vidéo', { type: 'text' })}
        {busy ? <ProgressBar value={progress ?? 0} label="Envoi de l'inscription" /> : null}
        {error ? <FormError message={error.message} detail={error.detail} /> : null}
        {tried && missing.length > 0 ? (
          <p className="field__error" role="alert">
            {missing.length === 1 ? 'Un champ est à remplir.' : `${missing.length} champs sont à remplir.`}
          </p>
        ) : null}
        {/* never disabled for a missing field: a try says which one, next to it */}
        <button type="submit" className="btn btn--primary btn--block" disabled={busy} aria-busy={busy}>
          {busy ? 'Création du compte...' : 'Créer mon compte'}
        </button>
        {!tried && !busy ? <p className="form__hint">Tous les champs sont obligatoires.</p> : null}
      </form>
    </AuthPage>
  );
}
