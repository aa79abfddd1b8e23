import { useState } from 'react';
import { serverMessageOf } from '../api/http';
import { formatCoins, formatDateTime } from '../coins/format';
import { useIdempotentAction } from '../api/idempotency';
import { useWallet } from '../coins/live';
import { useToast } from '../shell/toast';
import { claimGift, type ReceivedGift, useReceivedGifts } from './api';
import { useQueryClient } from '@tanstack/react-query';
import { giftRoutes } from '@evo/contracts';
import { updateRoute } from '../api/queries';
import { useCurrentUser } from '../identity/sessionContext';
import { QueryState } from '../shell/ui/QueryState';
import { GiftBoxIcon } from '../shell/ui/icons';

/** the product screens, "Received gifts table", the product states and transitions "Gift received", the product error catalogue "Gifts" (claim failure). */
const ALREADY_CLAIMED = 'Déjà récupéré';
const CLAIMED = '✅ Cadeau récupéré !';
const CLAIM_FAILED = 'Erreur serveur';
const EMPTY = 'Aucun cadeau reçu.';
const LOAD_FAILED = 'Impossible de charger tes cadeaux reçus.';

/** Gift, sender, amount, date, and claim (or 'Déjà récupéré'); new gifts appear live. */
export function ReceivedGiftsTable({ caption = 'Cadeaux reçus' }: { caption?: string }) {
  const gifts = useReceivedGifts();
  const { user } = useCurrentUser();
  const client = useQueryClient();
  const wallet = useWallet();
  const toast = useToast();
  const run = useIdempotentAction();
  const [pending, setPending] = useState<number | null>(null);

  const claim = async (gift: ReceivedGift) => {
    if (pending !== null || gift.claimed) return;
    setPending(gift.id);
    try {
      const answer = await run(`claim:${gift.id}`, (key) => claimGift(gift.id, key));
      if (user)
        updateRoute(client, giftRoutes.received, { email: user.email }, (list) =>
          list.map((g) => (g.id === gift.id ? { ...g, claimed: true } : g)),
        );
      wallet.apply(answer);
      toast.success(answer.message ?? CLAIMED);
    } catch (err) {
      toast.error(serverMessageOf(err) ?? CLAIM_FAILED);
      void gifts.refetch(); // e.g. already claimed from another tab: show the truth
    } finally {
      setPending(null);
    }
  };

  return (
    <QueryState query={gifts} failed={LOAD_FAILED} empty={EMPTY}>
      {(list) => (
        <div className="gift-table-wrap">
          <table className="gift-table" role="table" aria-busy={gifts.isFetching}>
            <caption className="sr-only">{caption}</caption>
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  Cadeau
                </th>
                <th scope="col" role="columnheader">
                  Expéditeur
                </th>
                <th scope="col" role="columnheader">
                  Montant
                </th>
                <th scope="col" role="columnheader">
                  Date
                </th>
                <th scope="col" role="columnheader">
                  Action
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {list.map((gift) => (
                <tr
                  key={gift.id}
                  role="row"
                  className={gift.claimed ? 'gift-table__row gift-table__row--claimed' : 'gift-table__row'}
                >
                  <th scope="row" role="rowheader" data-label="Cadeau" className="gift-table__gift">
                    <span className="catalogue-emoji" aria-hidden="true">
                      {gift.emoji || <GiftBoxIcon size={20} />}{' '}
                    </span>
                    {gift.name || 'Cadeau'}
                  </th>
                  <td role="cell" data-label="Expéditeur">
                    {gift.sender_pseudo ? `@${gift.sender_pseudo}` : 'inconnu'}
                  </td>
                  <td role="cell" data-label="Montant">
                    {formatCoins(gift.amount)}
                  </td>
                  <td role="cell" data-label="Date">
                    <time dateTime={gift.sent_at}>{formatDateTime(gift.sent_at)}</time>
                  </td>
                  <td role="cell" data-label="Action" className="gift-table__action">
                    {gift.claimed ? (
                      <span className="gift-table__done">{ALREADY_CLAIMED}</span>
                    ) : (
                      <button
                        type="button"
                        className="btn btn--primary btn--small"
                        aria-label={`Récupérer ${gift.name || 'le cadeau'} de ${gift.sender_pseudo ? `@${gift.sender_pseudo}` : 'inconnu'}`}
                        aria-disabled={pending === gift.id}
                        aria-busy={pending === gift.id}
                        onClick={() => void claim(gift)}
                      >
                        {pending === gift.id ? 'Récupération…' : 'Récupérer'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </QueryState>
  );
}
