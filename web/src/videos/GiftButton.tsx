import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isNetworkFailure, serverMessageOf } from '../coins/errors';
import { useIdempotentAction } from '../coins/idempotency';
import { applyWallet } from '../coins/useWallet';
import { fetchGiftBalance, sendGift, VIDEO_CARD_GIFT_ID } from '../gifts/api';
import { useCurrentUser } from '../identity/sessionContext';
import { useToast } from '../shell/toast';
import { GiftIcon } from './icons';
import type { Video } from './types';

/** SPEC.md §5 "Gift from a video card", §8 "Gifts". */
export const GIFT_LOGIN_NEEDED = 'Vous devez être connecté pour envoyer un cadeau';
export const GIFT_NO_RECIPIENT = 'Impossible de trouver le destinataire de ce cadeau';
const NO_COINS = "Vous n'avez pas assez de coins. Rechargez votre coffre !";
const SERVER_INSUFFICIENT = 'Solde insuffisant.';
const INSUFFICIENT = '❌ Solde insuffisant. Rechargez vos coins !';
const SERVER_FAILED = 'Échec serveur';
const NETWORK_FAILED = "❌ Erreur réseau lors de l'envoi du cadeau";
const SENT = '🎁 Cadeau envoyé !';
const LABEL = 'Envoyer un cadeau';

export interface GiftButtonProps {
  video: Video;
  /** 'bar' = icon above a small label (single video page), 'inline' = icon + label (cards). */
  variant?: 'inline' | 'bar';
}

/**
 * Gift button of the video cards and of the single video page: sends gift 1 (SPEC.md §9) to the
 * video's owner, once the balance is known to be above 0. Out of coins → /coffre.
 */
export function GiftButton({ video, variant = 'inline' }: GiftButtonProps) {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const toast = useToast();
  const run = useIdempotentAction();
  const [pending, setPending] = useState(false);

  const onClick = async () => {
    if (pending) return;
    if (!user) {
      toast.error(GIFT_LOGIN_NEEDED);
      return;
    }
    const receiver = video.user_email.trim();
    if (!receiver) {
      toast.error(GIFT_NO_RECIPIENT);
      return;
    }
    setPending(true);
    try {
      // the balance must be above 0 (a failed check is left to the server, which checks it anyway)
      const balance = await fetchGiftBalance(user.email).catch((err: unknown) => {
        if (isNetworkFailure(err)) throw err;
        return null;
      });
      if (balance !== null && balance <= 0) {
        toast.error(NO_COINS);
        navigate('/coffre');
        return;
      }
      const answer = await run(`send:${user.email}:${receiver}:${VIDEO_CARD_GIFT_ID}`, (key) =>
        sendGift(user.email, receiver, VIDEO_CARD_GIFT_ID, key),
      );
      applyWallet(user.email, answer);
      toast.success(answer.message ?? SENT);
    } catch (err) {
      const server = serverMessageOf(err);
      if (server === SERVER_INSUFFICIENT) {
        toast.error(INSUFFICIENT);
        navigate('/coffre');
      } else if (isNetworkFailure(err)) {
        toast.error(NETWORK_FAILED);
      } else {
        toast.error(`❌ Erreur: ${server ?? SERVER_FAILED}`);
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <button
      type="button"
      className={`video-action video-action--${variant} video-action--gift`}
      aria-label={LABEL}
      title={video.user_pseudo ? `${LABEL} à @${video.user_pseudo}` : LABEL}
      aria-busy={pending}
      aria-disabled={pending}
      style={pending ? { opacity: 0.55, cursor: 'progress' } : undefined}
      onClick={() => void onClick()}
    >
      <GiftIcon />
      <span className="video-action__text" aria-hidden="true">
        Cadeau
      </span>
    </button>
  );
}
