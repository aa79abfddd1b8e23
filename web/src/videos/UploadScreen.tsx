import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ApiError, isAbortError } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { useToast } from '../shell/toast';
import { FileField } from '../shell/ui/FileField';
import { FormError, TextAreaField } from '../shell/ui/Form';
import { ProgressBar } from '../shell/ui/ProgressBar';
import { RestrictionNotice } from '../moderation/RestrictionNotice';
import { refreshAfterRefusal, useRestriction } from '../moderation/useMyModeration';
import { useObjectUrl } from '../shell/useObjectUrl';
import { uploadVideo } from './uploadApi';

const NO_FILE = 'Choisis une vidéo.';
const UPLOAD_OK = 'Vidéo envoyée avec succès !';
const UPLOAD_FAILED = "Erreur lors de l'upload.";

/** the product rule "Upload (/upload/video)": video file, required title, optional caption. */
export default function UploadScreen() {
  const { user } = useCurrentUser();
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [caption, setCaption] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<{ message: string; detail?: string } | null>(null);
  const [fileInputKey, setFileInputKey] = useState(0);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const progressRef = useRef<HTMLDivElement>(null);
  // the video just published, linked under the success message until the next upload starts
  const [published, setPublished] = useState<{ id: number; title: string } | null>(null);
  const preview = useObjectUrl(file);
  const busy = progress !== null;
  // a restriction from publishing (issue 32): shown before the member picks a file
  const restricted = useRestriction('upload');

  useEffect(() => () => abortRef.current?.abort(), []);

  // once an upload starts, its progress and "Annuler l'envoi" are brought above the fixed bottom
  // bar (the html scroll-padding keeps them clear of it), where a phone user can reach them
  useEffect(() => {
    if (busy) progressRef.current?.scrollIntoView({ block: 'nearest' });
  }, [busy]);

  const onFileChange = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    if (chosen && !chosen.type.startsWith('video/')) {
      event.target.value = '';
      setFile(null);
      setError({ message: NO_FILE });
      return;
    }
    setFile(chosen);
    setError(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || restricted) return;
    if (!file) {
      setError({ message: NO_FILE });
      fileInputRef.current?.focus();
      return;
    }
    if (!title.trim()) return;
    const controller = new AbortController();
    abortRef.current = controller;
    setError(null);
    setPublished(null);
    setProgress(0);
    try {
      const answer = await uploadVideo(
        {
          file,
          title: title.trim(),
          description: caption.trim(),
          email: user?.email || 'anonymous',
          pseudo: user?.pseudo ?? '',
        },
        setProgress,
        controller.signal,
      );
      toast.success(UPLOAD_OK);
      setPublished({ id: answer.video.id, title: answer.video.title });
      setFile(null);
      setTitle('');
      setCaption('');
      setFileInputKey((key) => key + 1);
    } catch (err) {
      if (isAbortError(err)) return;
      setError({ message: UPLOAD_FAILED, detail: err instanceof ApiError ? err.serverMessage : undefined });
      refreshAfterRefusal(err);
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      if (!controller.signal.aborted) setProgress(null);
    }
  };

  const cancel = () => {
    abortRef.current?.abort();
    setProgress(null);
  };

  return (
    <section className="page upload" aria-labelledby="upload-title">
      <title>Publier une vidéo · EVO</title>
      <h1 id="upload-title">Publier une vidéo</h1>
      <form className="form card" onSubmit={onSubmit} aria-busy={busy}>
        <RestrictionNotice message={restricted} />
        <FileField
          key={fileInputKey}
          inputRef={fileInputRef}
          id="upload-file"
          label="Fichier vidéo"
          accept="video/*"
          required
          disabled={busy}
          fileName={file?.name ?? null}
          onChange={onFileChange}
          error={error?.message === NO_FILE ? NO_FILE : null}
        />
        {preview ? (
          <video className="video-player" src={preview} controls muted playsInline aria-label="Aperçu de la vidéo" />
        ) : null}
        <div className="field">
          <label htmlFor="upload-title-input">Titre</label>
          <input
            id="upload-title-input"
            type="text"
            required
            maxLength={150}
            disabled={busy}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <TextAreaField
          id="upload-caption"
          label={
            <>
              Légende <span className="field__optional">(facultatif)</span>
            </>
          }
          rows={3}
          maxLength={2000}
          disabled={busy}
          value={caption}
          onValue={setCaption}
        />
        {published ? (
          <p className="upload__done">
            Ta vidéo « {published.title} » est publiée.{' '}
            <Link to={`/video/${published.id}`} className="btn btn--secondary">
              Voir ma vidéo
            </Link>
          </p>
        ) : null}
        {busy ? <ProgressBar value={progress ?? 0} label="Envoi de la vidéo" /> : null}
        {error && error.message !== NO_FILE ? <FormError message={error.message} detail={error.detail} /> : null}
        <div className="form__actions" ref={progressRef}>
          <button type="submit" className="btn btn--primary" disabled={busy || restricted !== null}>
            {busy ? 'Envoi en cours...' : 'Publier'}
          </button>
          {busy ? (
            <button type="button" className="btn btn--ghost" onClick={cancel}>
              Annuler l'envoi
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
