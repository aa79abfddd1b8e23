import { useId, useState } from 'react';
import type { GiftInput } from './api';
import { EMPTY_GIFT_FIELDS } from './giftCatalog';
import { GiftFieldsEditor, useGiftForm } from './GiftFieldsEditor';

interface AddGiftFormProps {
  local: boolean;
  busy: boolean;
  /** Resolves true when added (the form is then cleared). */
  onAdd: (input: GiftInput) => Promise<boolean>;
  onNameMissing: () => void;
}

/** The add form of /admin/gifts (the product validation rules, "Admin gift add"). */
export function AddGiftForm({ local, busy, onAdd, onNameMissing }: AddGiftFormProps) {
  const id = useId();
  // a new editor (file picker included) after each addition
  const [generation, setGeneration] = useState(0);
  const { setFields, submit, editor } = useGiftForm(EMPTY_GIFT_FIELDS, onNameMissing, async (input) => {
    if (await onAdd(input)) {
      setFields(EMPTY_GIFT_FIELDS);
      setGeneration((n) => n + 1);
    }
  });

  return (
    <form className="gift-add card" aria-labelledby={`${id}-title`} onSubmit={(event) => void submit(event)} noValidate>
      <h2 id={`${id}-title`}>Ajouter un cadeau</h2>
      <GiftFieldsEditor key={generation} idPrefix={`${id}-add`} {...editor} />
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {local ? 'Ajouter (local)' : 'Ajouter'}
        </button>
      </div>
    </form>
  );
}
