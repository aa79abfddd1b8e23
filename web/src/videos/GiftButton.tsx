import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { isNetworkFailure, serverMessageOf } from '../api/http';
import { applyWallet } from '../coins/live';
import { useIdempotentAction } from '../api/idempotency';
import type { CatalogueGift, GiftReceiver } from '../gifts/api';
import { useCurrentUser } from '../identity/sessionContext';
import { sameIdentity } from '../social/format';
import { useToast } from '../shell/toast';
import { GiftIcon } from './icons';
import type { Video } from './types';

// the gift calls and the picker (catalogue, balance) load on the first tap, not with the page
const loadGifts = () => import('../gifts/api');
const loadPicker = () => import('../gifts/GiftPicker');
const GiftPicker = lazy(() => loadPicker().then((m) => ({ default: m.GiftPicker })));

/** the product validation rules, "Gift from a video card", the product error catalogue "Gifts". */
export const GIFT_LOGIN_NEEDED = 'Vous devez être connecté pour envoyer un cadeau';
export const GIFT_NO_RECIPIENT = 'Impossible de trouver le destinataire de ce cadeau';
const NO_COINS = "Vous n'avez pas assez de coins. Rechargez votre coffre !";
const SERVER_INSUFFICIENT = 'Solde insuffisant.';
const INSUFFICIENT = '❌ Solde insuffisant. Rechargez vos coins !';
const SERVER_FAILED = 'Échec serveur';
const NETWORK_FAILED = "❌ Erreur réseau lors de l'envoi du cadeau";
const SENT = '🎁 Cadeau envoyé !';
const LABEL = 'Envoyer un cadeau';
/** the owner when only their address is known: it is never shown */
const RECEIVER_FALLBACK = "l'auteur de la vidéo";

export interface GiftButtonProps {
  video: Video;
  /** 'bar' = icon above a small label (single video page), 'inline' = icon + label (cards). */
  variant?: 'inline' | 'bar';
}

/**
 * Gift button of the video cards and of the single video page. One click spends nothing: once the
 * balance is known to be above 0 (the product validation rules; out of coins → /coffre) it opens the gift picker
 * (catalogue, prices, balance; the card's gift 1 chosen first), and only its confirmation sends the
 * gift to the video's owner, named by pseudo.
 */
export function GiftButton({ video, variant = 'inline' }: GiftButtonProps) {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const toast = useToast();
  const client = useQueryClient();
  const run = useIdempotentAction();
  const [pending, setPending] = useState(false);
  // whom the open picker's gift goes to (null: the picker is closed)
  const [picking, setPicking] = useState<GiftReceiver | null>(null);
  // the balance was found at or below 0 on opening: the picker says so and offers "Recharger"
  const [outOfCoins, setOutOfCoins] = useState(false);
  const pseudo = video.user_pseudo.trim();
  const ownerEmail = video.user_email.trim();

  const open = async () => {
    if (pending || picking) return;
    if (!user) {
      toast.error(GIFT_LOGIN_NEEDED);
      return;
    }
    if (!pseudo && !ownerEmail) {
      toast.error(GIFT_NO_RECIPIENT);
      return;
    }
    setPending(true);
    void loadPicker().catch(() => undefined); // fetched meanwhile; a failure shows when it opens
    try {
      const gifts = await loadGifts();
      // the balance must be above 0 (a failed check is left to the server, which checks it anyway)
      const balance = await gifts.fetchGiftBalance(user.email).catch((err: unknown) => {
        if (isNetworkFailure(err)) throw err;
        return null;
      });
      // the product rule's message, said in the picker with a "Recharger" path to the packs rather
      // than by leaving the video for the vault (issue 30): the member goes there by choice
      setOutOfCoins(balance !== null && balance <= 0);
      setPicking(pseudo ? gifts.receiverByPseudo(pseudo) : { email: ownerEmail, label: RECEIVER_FALLBACK });
    } catch {
      toast.error(NETWORK_FAILED);
    } finally {
      setPending(false);
    }
  };

  const send = async (gift: CatalogueGift) => {
    const receiver = picking;
    if (!user || !receiver || pending) return;
    setPending(true);
    try {
      const { receiverKey, sendGift } = await loadGifts(); // loaded when the picker opened
      const answer = await run(`send:${user.email}:${receiverKey(receiver)}:${gift.id}`, (key) =>
        sendGift(user.email, receiver, gift.id, key),
      );
      void applyWallet(client, user.email, answer);
      setPicking(null);
      toast.success(answer.message ?? SENT);
    } catch (err) {
      const server = serverMessageOf(err);
      if (server === SERVER_INSUFFICIENT) {
        setPicking(null);
        toast.error(INSUFFICIENT);
        void navigate('/coffre');
      } else if (isNetworkFailure(err)) {
        toast.error(NETWORK_FAILED);
      } else {
        toast.error(`❌ Erreur: ${server ?? SERVER_FAILED}`);
      }
    } finally {
      setPending(false);
    }
  };

  // no gift to oneself: the button is not offered on one's own videos (the server refuses it)
  if (user && (sameIdentity(user.email, video.user_email) || (pseudo !== '' && user.pseudo?.trim() === pseudo)))
    return null;

  return (
    <>
      <button
        type="button"
        className={`video-action video-action--${variant} video-action--gift`}
        aria-label={LABEL}
        aria-haspopup="dialog"
        title={pseudo ? `${LABEL} à @${pseudo}` : LABEL}
        aria-busy={pending}
        aria-disabled={pending}
        style={pending ? { opacity: 0.55, cursor: 'progress' } : undefined}
        onClick={() => void open()}
      >
        <GiftIcon />
        <span className="video-action__text" aria-hidden="true">
          Cadeau
        </span>
      </button>
      {picking ? (
        <Suspense fallback={null}>
          <GiftPicker
            receiverLabel={picking.label}
            outOfCoinsMessage={outOfCoins ? NO_COINS : null}
            sending={pending}
            onConfirm={(gift) => void send(gift)}
            onClose={() => setPicking(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
