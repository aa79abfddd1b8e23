import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { errorMessage, isAbortError } from '../api/http';
import { identityRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';
import { useCurrentUser } from '../identity/sessionContext';
import { FileField } from '../shell/ui/FileField';
import { FormError, TextAreaField } from '../shell/ui/Form';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { useToast } from '../shell/toast';
import { useObjectUrl } from '../shell/useObjectUrl';
import { saveProfile } from './profileEditApi';
import { DeleteAccountSection } from '../identity/DeleteAccountSection';
import './social.css';
import { Loading } from '../shell/Loading';

const TITLE = 'Modifier le profil';
/** the server's rule (domain/src/identity/rules.ts, LIMITS.bioMax) */
const BIO_MAX = 500;
const WRONG_IMAGE = 'Choisis un fichier image.';
const SAVE_FAILED = "❌ Le profil n'a pas pu être enregistré.";
const LOAD_FAILED = 'Impossible de charger ton profil.';

/**
 * "Modifier le profil": a new picture and the bio. The pseudo is shown, not edited: every link to a
 * profile, every mention and the conversations name members by it.
 */
export default function EditProfileScreen() {
  const { user, signIn } = useCurrentUser();
  const navigate = useNavigate();
  const toast = useToast();
  // the member's own profile as it is now (its bio included)
  const me = useRouteQuery(identityRoutes.me, user ? {} : null);
  const [bio, setBio] = useState<string | null>(null);
  const [picture, setPicture] = useState<File | null>(null);
  const [pictureError, setPictureError] = useState<string | null>(null);
  const [error, setError] = useState<{ message: string; detail?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const preview = useObjectUrl(picture);

  if (!user) return null;
  if (me.error && !me.data) {
    return (
      <section className="page social" aria-labelledby="edit-profile-title">
        <h1 id="edit-profile-title">{TITLE}</h1>
        <FormError message={LOAD_FAILED} detail={errorMessage(me.error)} />
      </section>
    );
  }
  if (!me.data) {
    return <Loading />;
  }
  const current = me.data;
  const shownBio = bio ?? current.bio;
  const profilePath = `/user/${encodeURIComponent(current.pseudo)}`;

  const onPicture = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    if (file && !file.type.startsWith('image/')) {
      setPicture(null);
      setPictureError(WRONG_IMAGE);
      event.target.value = '';
      return;
    }
    setPictureError(null);
    setPicture(file);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const saved = await saveProfile({ bio: shownBio, picture }, () => undefined);
      const { message, bio: _bio, ...session } = saved;
      signIn(session);
      toast.success(message);
      navigate(profilePath);
    } catch (err) {
      if (isAbortError(err)) return;
      setError({ message: SAVE_FAILED, detail: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page social edit-profile" aria-labelledby="edit-profile-title">
      <title>{`${TITLE} · EVO`}</title>
      <h1 id="edit-profile-title">{TITLE}</h1>
      <form className="form card edit-profile__form" onSubmit={onSubmit} aria-busy={busy}>
        <div className="edit-profile__who">
          {preview ? (
            <img className="avatar" src={preview} alt="Nouvelle photo de profil" width={96} height={96} />
          ) : (
            <ProfilePicture pseudo={current.pseudo} profilePicture={current.profile_picture} size={96} />
          )}
          <div>
            <p className="edit-profile__pseudo">@{current.pseudo}</p>
            <p className="field__hint">Le pseudo ne change pas : tes liens et tes conversations le gardent.</p>
          </div>
        </div>
        <FileField
          id="edit-profile-picture"
          label="Nouvelle photo de profil"
          accept="image/*"
          fileName={picture?.name ?? null}
          onChange={onPicture}
          disabled={busy}
          error={pictureError}
        />
        <TextAreaField
          id="edit-profile-bio"
          label="Bio"
          rows={4}
          maxLength={BIO_MAX}
          value={shownBio}
          onValue={setBio}
          note={{ id: 'edit-profile-bio-count', text: `${shownBio.length} / ${BIO_MAX}`, error: false }}
        />
        {error ? <FormError message={error.message} detail={error.detail} /> : null}
        <div className="edit-profile__actions">
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? 'Enregistrement...' : 'Enregistrer'}
          </button>
          <Link to={profilePath} className="btn btn--secondary">
            Annuler
          </Link>
        </div>
      </form>
      <DeleteAccountSection />
    </section>
  );
}
