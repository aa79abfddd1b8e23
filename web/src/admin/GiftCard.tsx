import { useEffect, useId, useState } from 'react';
import type { AdminGift, GiftInput } from './api';
import { fieldsOf, giftImageSrc } from './giftCatalog';
import { GiftFieldsEditor, useGiftForm } from './GiftFieldsEditor';
import { formatCoins } from './format';
import { GiftBoxIcon } from '../shell/ui/icons';

interface GiftCardProps {
  gift: AdminGift;
  editing: boolean;
  busy: boolean;
  onEdit: () => void;
  onCancel: () => void;
  /** Resolves true when saved (the card then returns to display). */
  onSave: (input: GiftInput) => Promise<boolean>;
  onDelete: () => void;
  /** Shown when the trimmed name is empty (the product validation rules). */
  onNameMissing: () => void;
}

/** One gift of /admin/gifts: displayed, or in edit mode (one gift at a time). */
export function GiftCard({ gift, editing, busy, onEdit, onCancel, onSave, onDelete, onNameMissing }: GiftCardProps) {
  const id = useId();
  return (
    <article className="gift-card card" aria-labelledby={`${id}-name`}>
      {editing ? (
        <GiftEditForm
          gift={gift}
          idPrefix={id}
          busy={busy}
          onCancel={onCancel}
          onSave={onSave}
          onNameMissing={onNameMissing}
        />
      ) : (
        <>
          <GiftVisual gift={gift} />
          <div className="gift-card__text">
            <h3 id={`${id}-name`} className="gift-card__name">
              {gift.name}
            </h3>
            <p className="gift-card__price">{formatCoins(gift.price)}</p>
            <p className="gift-card__meta">
              n° {gift.id}
              {gift.image_url ? <span className="gift-card__path"> · {gift.image_url}</span> : null}
            </p>
          </div>
          <div className="gift-card__actions">
            <button
              type="button"
              className="btn btn--secondary btn--small"
              disabled={busy}
              aria-label={`Modifier ${gift.name}`}
              onClick={onEdit}
            >
              Modifier
            </button>
            <button
              type="button"
              className="btn btn--ghost btn--small gift-card__delete"
              disabled={busy}
              aria-label={`Supprimer ${gift.name}`}
              onClick={onDelete}
            >
              Supprimer
            </button>
          </div>
        </>
      )}
    </article>
  );
}

function GiftVisual({ gift }: { gift: AdminGift }) {
  const src = giftImageSrc(gift.image_url);
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) {
    return <img className="gift-card__image" src={src} alt="" width={56} height={56} onError={() => setFailed(src)} />;
  }
  return (
    <span className="gift-card__emoji catalogue-emoji" aria-hidden="true">
      {gift.emoji || <GiftBoxIcon size={32} />}
    </span>
  );
}

interface GiftEditFormProps {
  gift: AdminGift;
  idPrefix: string;
  busy: boolean;
  onCancel: () => void;
  onSave: (input: GiftInput) => Promise<boolean>;
  onNameMissing: () => void;
}

function GiftEditForm({ gift, idPrefix, busy, onCancel, onSave, onNameMissing }: GiftEditFormProps) {
  const { nameRef, submit, editor } = useGiftForm(() => fieldsOf(gift), onNameMissing, onSave);

  useEffect(() => {
    nameRef.current?.focus();
  }, [nameRef]);

  return (
    <form
      className="gift-card__form"
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => event.key === 'Escape' && onCancel()}
    >
      <h3 id={`${idPrefix}-name`} className="gift-card__name">
        Modifier « {gift.name} » <span className="gift-card__meta">n° {gift.id}</span>
      </h3>
      <GiftFieldsEditor idPrefix={`${idPrefix}-edit`} {...editor} />
      <div className="form__actions">
        <button type="submit" className="btn btn--primary btn--small" disabled={busy}>
          Enregistrer
        </button>
        <button type="button" className="btn btn--ghost btn--small" onClick={onCancel}>
          Annuler
        </button>
      </div>
    </form>
  );
}
