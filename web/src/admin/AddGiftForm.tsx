import { useId, useRef, useState, type FormEvent } from 'react';
import type { GiftInput } from './api';
import { EMPTY_GIFT_FIELDS, readGiftFields, type GiftFields } from './giftCatalog';
import { GiftFieldsEditor } from './GiftFieldsEditor';

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
  const [fields, setFields] = useState<GiftFields>(EMPTY_GIFT_FIELDS);
  const [nameError, setNameError] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  // a new editor (file picker included) after each addition
  const [generation, setGeneration] = useState(0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = readGiftFields(fields);
    if (!input) {
      setNameError(true);
      onNameMissing();
      nameRef.current?.focus();
      return;
    }
    setNameError(false);
    if (await onAdd(input)) {
      setFields(EMPTY_GIFT_FIELDS);
      setGeneration((n) => n + 1);
    }
  };

  return (
    <form className="gift-add card" aria-labelledby={`${id}-title`} onSubmit={(event) => void submit(event)} noValidate>
      <h2 id={`${id}-title`}>Ajouter un cadeau</h2>
      <GiftFieldsEditor
        key={generation}
        idPrefix={`${id}-add`}
        fields={fields}
        onChange={setFields}
        nameError={nameError && fields.name.trim() === ''}
        nameRef={nameRef}
      />
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {local ? 'Ajouter (local)' : 'Ajouter'}
        </button>
      </div>
    </form>
  );
}
