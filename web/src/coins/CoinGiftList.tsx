import { formatCoins, formatDateTime } from './format';
import { useCoinGifts } from './hooks';
import { GiftBoxIcon } from '../shell/ui/icons';

const EMPTY = 'Aucune transaction enregistrée.';
const LOAD_FAILED = 'Impossible de charger les coins reçus.';

/** the product screens, "Received coin gifts list": sender and value (plus the gift and the date); live. */
export function CoinGiftList() {
  const gifts = useCoinGifts();

  if (gifts.error && !gifts.data) {
    return (
      <div className="coins-error" role="alert">
        <p>{LOAD_FAILED}</p>
        <button type="button" className="btn btn--secondary btn--small" onClick={gifts.reload}>
          Réessayer
        </button>
      </div>
    );
  }
  if (!gifts.data) {
    return (
      <p className="loading" role="status">
        Chargement...
      </p>
    );
  }
  if (gifts.data.length === 0) return <p className="coins-empty">{EMPTY}</p>;
  return (
    <ul className="coins-received" aria-label="Coins reçus" aria-busy={gifts.loading}>
      {gifts.data.map((gift, index) => (
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
  );
}
