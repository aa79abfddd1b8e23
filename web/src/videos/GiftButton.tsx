import { useNavigate } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { catalogueForPath } from '../social/format';
import { useToast } from '../shell/toast';
import { GiftIcon } from './icons';
import type { Video } from './types';

/** SPEC.md §5 "Gift from a video card". */
export const GIFT_LOGIN_NEEDED = 'Vous devez être connecté pour envoyer un cadeau';
export const GIFT_NO_RECIPIENT = 'Impossible de trouver le destinataire de ce cadeau';

export interface GiftButtonProps {
  video: Video;
  /** 'bar' = icon above a small label (single video page), 'inline' = icon + label (cards). */
  variant?: 'inline' | 'bar';
}

/**
 * Gift button of the video cards and of the single video page.
 *
 * For now it opens the gift catalogue for the video's owner
 * (/catalogue?receiver={owner email}). The coins/gifts slice replaces the action:
 * either pass `renderGiftButton` to <VideoCard>/<VideoActionBar>, or change the body
 * of this component (same props), which every card uses by default.
 */
export function GiftButton({ video, variant = 'inline' }: GiftButtonProps) {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const toast = useToast();
  const owner = video.user_pseudo ? `@${video.user_pseudo}` : "l'auteur";

  const onClick = () => {
    if (!user) {
      toast.error(GIFT_LOGIN_NEEDED);
      return;
    }
    if (!video.user_email) {
      toast.error(GIFT_NO_RECIPIENT);
      return;
    }
    navigate(catalogueForPath(video.user_email));
  };

  return (
    <button
      type="button"
      className={`video-action video-action--${variant} video-action--gift`}
      aria-label={`Envoyer un cadeau à ${owner}`}
      onClick={onClick}
    >
      <GiftIcon />
      <span className="video-action__text" aria-hidden="true">
        Cadeau
      </span>
    </button>
  );
}
