import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import type { Video } from './types';

/** Visibility statuses a video may have besides 'publique' (the product states and transitions, "Video visibility"). */
const STATUS_LABELS: Record<string, string> = {
  masquée: 'Vidéo masquée par la modération',
  supprimée: 'Vidéo supprimée',
};
const ONLY_AUTHOR_AND_ADMINS = "Elle n'est visible que par son auteur et les administrateurs.";
const NO_MESSAGE = 'Aucun message de la modération.';

/** The French status of a video members other than its author cannot see, or null when it is public. */
export function moderationStatus(video: Pick<Video, 'status'>): string | null {
  return video.status ? (STATUS_LABELS[video.status] ?? null) : null;
}

/**
 * Told to the author of a video hidden by moderation (and to administrators): its status, who
 * still sees it, and the moderation message they were sent.
 */
export function ModerationNotice({ video, compact = false }: { video: Video; compact?: boolean }) {
  const { user } = useCurrentUser();
  const status = moderationStatus(video);
  if (!status) return null;
  // its author may contest the decision (an administrator sees the notice too)
  const mine = !!user && user.email.toLowerCase() === video.user_email.toLowerCase();
  return (
    <div className={compact ? 'moderation-notice moderation-notice--compact' : 'moderation-notice'} role="note">
      <p className="moderation-notice__status">{status}</p>
      {compact ? null : <p>{ONLY_AUTHOR_AND_ADMINS}</p>}
      <p className="moderation-notice__message">
        {video.moderation_message ? `Message de la modération : ${video.moderation_message}` : NO_MESSAGE}
      </p>
      {compact || !mine ? null : <Link to="/moderation">Voir la décision et la contester</Link>}
    </div>
  );
}
