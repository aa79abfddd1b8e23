import { useId, useRef, useState } from 'react';
import { socialRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';
import { QueryState } from '../shell/ui/QueryState';
import { RecipientPicker } from './RecipientPicker';
import { useNavigate } from 'react-router-dom';
import { BalanceCard } from '../coins/BalanceCard';
import { isNetworkFailure, serverMessageOf } from '../api/http';
import { formatCoins } from '../coins/format';
import { useIdempotentAction } from '../api/idempotency';
import { useWallet } from '../coins/live';
import { useCurrentUser } from '../identity/sessionContext';
import { useToast } from '../shell/toast';
import { receiverKey, sendGift, type CatalogueGift, type GiftReceiver, useCatalog } from './api';
import { GiftVisual } from './GiftPicker';

/** the product validation rules, "Gift from the catalogue", the product error catalogue "Gifts" (catalogue variants). */
export const NO_RECEIVER = '⚠️ Aucun destinataire.';
const LOGIN_NEEDED = 'Vous devez être connecté pour envoyer un cadeau';
const NOT_ENOUGH = '⚠️ Solde insuffisant, direction ton coffre !';
const SERVER_INSUFFICIENT = 'Solde insuffisant.';
const SENT = '🎉 Cadeau envoyé !';
const SEND_FAILED = "Erreur lors de l'envoi.";
const NETWORK_FAILED = "Impossible d'envoyer le cadeau";
const LOAD_FAILED = 'Erreur lors du chargement des cadeaux.';
const EMPTY = 'Aucun cadeau trouvé.';
const HOW_TO_PICK = 'Pour offrir un cadeau, ouvre le profil d’un membre puis « Envoyer un cadeau ».';
const PICK_FIRST = 'Choisis d’abord à qui offrir le cadeau, puis « Envoyer ».';

interface GiftCatalogueProps {
  /** who receives the gift (shown by its label, never an email); null when none is known */
  receiver: GiftReceiver | null;
  /** 'page': the catalogue is the page (warns when there is no receiver); 'embedded': a section of the vault */
  variant?: 'page' | 'embedded';
  /** shows the member's balance above the grid (default true) */
  showBalance?: boolean;
  /** without a receiver, the member picks one among those they follow (else the catalogue only says how) */
  pickReceiver?: boolean;
}

/** the product screens, "Gift catalogue": emoji or image, name, cost and a send button per gift. */
export function GiftCatalogue({
  receiver,
  variant = 'page',
  showBalance = true,
  pickReceiver = false,
}: GiftCatalogueProps) {
  const { user } = useCurrentUser();
  const catalog = useCatalog();
  const wallet = useWallet();
  const toast = useToast();
  const navigate = useNavigate();
  const run = useIdempotentAction();
  const [pending, setPending] = useState<number | null>(null);
  const receiverId = useId();
  const given = receiver && ('pseudo' in receiver ? receiver.pseudo.trim() : receiver.email.trim()) ? receiver : null;
  // no receiver given: the member picks one among those they follow
  const picking = pickReceiver && !given && user !== null;
  const friends = useRouteQuery(socialRoutes.friends, picking && user ? { email: user.email } : null);
  const [chosen, setChosen] = useState<GiftReceiver | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const to = given ?? (picking ? chosen : null);
  // nobody to pick from: no button that can only fail
  const canSend = to !== null || !picking || friends.data?.length !== 0;

  const send = async (gift: CatalogueGift) => {
    if (pending !== null) return;
    if (!to) {
      toast.error(NO_RECEIVER);
      searchRef.current?.focus();
      return;
    }
    if (!user) {
      toast.error(LOGIN_NEEDED);
      return;
    }
    const balance = wallet.wallet?.coins_balance;
    if (balance !== undefined && balance < gift.coin_cost) {
      toast.error(NOT_ENOUGH);
      navigate('/coffre');
      return;
    }
    setPending(gift.id);
    try {
      const answer = await run(`send:${user.email}:${receiverKey(to)}:${gift.id}`, (key) =>
        sendGift(user.email, to, gift.id, key),
      );
      wallet.apply(answer);
      toast.success(SENT);
    } catch (err) {
      const server = serverMessageOf(err);
      if (server === SERVER_INSUFFICIENT) {
        toast.error(NOT_ENOUGH);
        navigate('/coffre');
      } else if (isNetworkFailure(err)) {
        toast.error(NETWORK_FAILED);
      } else {
        toast.error(server ?? SEND_FAILED);
      }
    } finally {
      setPending(null);
    }
  };

  const grid = (
    <QueryState query={catalog} failed={LOAD_FAILED} empty={EMPTY}>
      {(gifts) => (
        <ul className="tile-grid" aria-label="Cadeaux">
          {gifts.map((gift) => (
            <li key={gift.id} className="gift-tile card">
              <GiftVisual gift={gift} />
              <h3 className="gift-tile__name">{gift.name}</h3>
              <p className="gift-tile__cost">{formatCoins(gift.coin_cost)}</p>
              {canSend ? (
                <button
                  type="button"
                  className="btn btn--primary btn--small btn--block"
                  aria-label={`Envoyer le cadeau ${gift.name} (${formatCoins(gift.coin_cost)})`}
                  aria-disabled={pending === gift.id}
                  aria-busy={pending === gift.id}
                  onClick={() => void send(gift)}
                >
                  {pending === gift.id ? 'Envoi…' : 'Envoyer'}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );

  return (
    <div className="gift-catalogue">
      {showBalance && user ? <BalanceCard handle={wallet} /> : null}
      {picking ? (
        <>
          {!to && variant === 'page' ? (
            <div className="alert alert--info gift-catalogue__none" role="status">
              <p>{NO_RECEIVER}</p>
              <p className="gift-catalogue__hint">{canSend ? PICK_FIRST : HOW_TO_PICK}</p>
            </div>
          ) : null}
          <RecipientPicker friends={friends} value={chosen} onChange={setChosen} searchRef={searchRef} />
          {!to && canSend && variant !== 'page' ? <p className="coins-section__hint">{PICK_FIRST}</p> : null}
        </>
      ) : to ? (
        <p id={receiverId} className="gift-catalogue__receiver">
          Destinataire : <strong>{to.label}</strong>
        </p>
      ) : variant === 'page' ? (
        <div className="alert alert--info gift-catalogue__none" role="status">
          <p>{NO_RECEIVER}</p>
          <p className="gift-catalogue__hint">{HOW_TO_PICK}</p>
        </div>
      ) : (
        <p className="coins-section__hint">{HOW_TO_PICK}</p>
      )}
      {grid}
    </div>
  );
}
