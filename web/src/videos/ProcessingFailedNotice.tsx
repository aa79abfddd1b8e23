import { useState } from 'react';
import { errorMessage } from '../api/http';
import { useToast } from '../shell/toast';
import { retryProcessing } from './videoApi';
import type { Video } from './types';

const TITLE = 'Le traitement de cette vidéo a échoué';
const RETRY = 'Relancer le traitement';
const RETRYING = 'Relance…';
const RETRIED = 'Traitement relancé : la vidéo sera prête dans quelques instants.';
const RETRY_FAILED = 'Impossible de relancer le traitement.';

/**
 * Told to the author of a video whose processing failed at every try on the server's side (a full
 * disk, a crash): the reason, and what they can do about it, try again or delete the video.
 */
export function ProcessingFailedNotice({ video, onDelete }: { video: Video; onDelete: () => void }) {
  const toast = useToast();
  const [state, setState] = useState<'failed' | 'retrying' | 'retried'>('failed');
  if (state === 'retried') {
    return (
      <p className="processing-notice processing-notice--retried" role="status">
        {RETRIED}
      </p>
    );
  }
  const retry = async () => {
    setState('retrying');
    try {
      await retryProcessing(video.id);
      setState('retried');
    } catch (err) {
      toast.error(errorMessage(err) ?? RETRY_FAILED);
      setState('failed');
    }
  };
  return (
    <div className="processing-notice" role="note">
      <p className="processing-notice__status">{TITLE}</p>
      {video.reject_reason ? <p>{video.reject_reason}</p> : null}
      <div className="processing-notice__actions">
        <button
          type="button"
          className="btn btn--primary btn--small"
          disabled={state === 'retrying'}
          onClick={() => void retry()}
        >
          {state === 'retrying' ? RETRYING : RETRY}
        </button>
        <button type="button" className="btn btn--ghost btn--small" onClick={onDelete}>
          Supprimer
        </button>
      </div>
    </div>
  );
}
