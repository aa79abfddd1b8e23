import { formatCoins, formatDateTime } from './format';
import { useCoinGifts } from './api';
import { QueryState } from '../shell/ui/QueryState';
import { GiftBoxIcon } from '../shell/ui/icons';

const EMPTY = 'Aucune transaction enregistrée.';
const LOAD_FAILED = 'Impossible de charger les coins reçus.';

/** the product screens, "Received coin gifts list": sender and value (plus the gift and the date); live. */
export function CoinGiftList() {
  const gifts = useCoinGifts();
  return (
    <QueryState query={gifts} failed={LOAD_FAILED} empty={EMPTY}>
      {(list) => (
        <ul className="stack-list coins-received" aria-label="Coins reçus" aria-busy={gifts.isFetching}>
          {list.map((gift, index) => (
            <li key={`${gift.created_at}-${index}`} className="coins-received__row card">
              <span className="coins-received__emoji catalogue-emoji" aria-hidden="true">
                {gift.emoji || <GiftBoxIcon size={28} />}
              </span>
              <div className="coins-received__text">
                <p className="coins-received__sender">
                  <span className="sr-only">De </span>
                  {gift.sender_pseudo ? `@${gift.sender_pseudo}` : 'inconnu'}
                </p>
                <p className="coins-received__meta">
                  {gift.name ? `${gift.name} · ` : ''}
                  <time dateTime={gift.created_at}>{formatDateTime(gift.created_at)}</time>
                </p>
              </div>
              <p className="coins-received__value">
                <span className="sr-only">Valeur : </span>
                {formatCoins(gift.gift_value)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}
