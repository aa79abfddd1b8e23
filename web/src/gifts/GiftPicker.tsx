import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatCoins } from '../shell/ui/format';
import { useWallet } from '../coins/live';
import { VIDEO_CARD_GIFT_ID, giftImageUrl, type CatalogueGift, useCatalog } from './api';
import { QueryState } from '../shell/ui/QueryState';
import { GiftBoxIcon } from '../shell/ui/icons';
import './gifts.css';

const LOAD_FAILED = 'Erreur lors du chargement des cadeaux.';
const EMPTY = 'Aucun cadeau trouvé.';
const TOO_EXPENSIVE = 'Solde insuffisant';
const NO_COINS = "Vous n'avez pas assez de coins. Rechargez votre coffre !";

interface GiftPickerProps {
  /** how the receiver is named in the title: '@pseudo' (never an email) */
  receiverLabel: string;
  /** the balance was at or below 0 when the picker opened: this is said, with a way to buy coins */
  outOfCoinsMessage?: string | null;
  sending: boolean;
  onConfirm: (gift: CatalogueGift) => void;
  onClose: () => void;
}

/**
 * The gift a video card sends, chosen before anything is spent: the catalogue with prices and the
 * member's balance, then "Envoyer …" confirms. A modal <dialog> (the page behind is inert, Escape
 * closes it, it lies above the fixed bars). The card's gift (the product business constants, id 1) is chosen first.
 */
export function GiftPicker({ receiverLabel, outOfCoinsMessage = null, sending, onConfirm, onClose }: GiftPickerProps) {
  const wallet = useWallet(); // loaded (and kept live) while the picker is open
  const dialogRef = useRef<HTMLDialogElement>(null);
  const catalog = useCatalog();
  const titleId = useId();
  const balance = wallet.wallet?.coins_balance;
  // out of coins: said at once, and again if the live balance drops to 0 while the picker is open
  const empty = outOfCoinsMessage !== null || (balance !== undefined && balance <= 0);
  const affordable = (g: CatalogueGift) => balance === undefined || g.coin_cost <= balance;
  const [chosenId, setChosenId] = useState<number | null>(null);
  const gifts = catalog.data ?? [];
  const fallback =
    gifts.find((g) => g.id === VIDEO_CARD_GIFT_ID && affordable(g)) ?? gifts.find((g) => affordable(g)) ?? null;
  const chosen = gifts.find((g) => g.id === chosenId && affordable(g)) ?? fallback;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={dialogRef}
      className="gift-picker"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault(); // Escape: close through React
        onClose();
      }}
      onMouseDown={(event) => event.target === event.currentTarget && onClose()}
    >
      <form
        className="gift-picker__form"
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (chosen && !sending) onConfirm(chosen);
        }}
      >
        <h2 id={titleId} className="gift-picker__title">
          Envoyer un cadeau à {receiverLabel}
        </h2>
        <p className="gift-picker__balance">
          Ton solde :{' '}
          <strong data-testid="gift-picker-balance">{balance === undefined ? '…' : formatCoins(balance)}</strong>
          {empty ? null : (
            <>
              {' · '}
              <Link to="/packs" onClick={onClose}>
                Recharger
              </Link>
            </>
          )}
        </p>
        {empty ? (
          <div className="gift-picker__empty" role="alert">
            <p>{outOfCoinsMessage ?? NO_COINS}</p>
            <Link to="/packs" className="btn btn--primary" onClick={onClose}>
              Recharger
            </Link>
          </div>
        ) : null}
        <QueryState query={catalog} failed={LOAD_FAILED} retry={false} empty={EMPTY}>
          {() => (
            <fieldset className="gift-picker__choices">
              <legend className="sr-only">Choisis un cadeau</legend>
              {gifts.map((gift) => {
                const disabled = !affordable(gift);
                return (
                  <label
                    key={gift.id}
                    className={disabled ? 'gift-choice gift-choice--disabled' : 'gift-choice'}
                    title={disabled ? TOO_EXPENSIVE : undefined}
                  >
                    <input
                      type="radio"
                      name="gift"
                      value={gift.id}
                      checked={chosen?.id === gift.id}
                      disabled={disabled || sending}
                      onChange={() => setChosenId(gift.id)}
                    />
                    <GiftVisual gift={gift} />
                    <span className="gift-choice__name">{gift.name}</span>
                    <span className="gift-choice__cost">{formatCoins(gift.coin_cost)}</span>
                  </label>
                );
              })}
            </fieldset>
          )}
        </QueryState>
        <div className="gift-picker__actions">
          <button type="button" className="btn btn--ghost gift-picker__cancel" onClick={onClose}>
            Annuler
          </button>
          <button
            type="submit"
            className="btn btn--primary gift-picker__confirm"
            disabled={!chosen || sending}
            aria-busy={sending}
          >
            {chosen ? `Envoyer ${chosen.name} (${formatCoins(chosen.coin_cost)})` : 'Envoyer'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** The gift's image when it has one, else its emoji (decorative: the name follows). */
export function GiftVisual({ gift }: { gift: Pick<CatalogueGift, 'emoji' | 'image_url'> }) {
  const src = giftImageUrl(gift.image_url);
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) {
    return (
      <img
        className="gift-visual gift-visual--image"
        src={src}
        alt=""
        width={56}
        height={56}
        onError={() => setFailed(src)}
      />
    );
  }
  return (
    <span className="gift-visual catalogue-emoji" aria-hidden="true">
      {gift.emoji || <GiftBoxIcon size={32} />}
    </span>
  );
}
