import { useRef, useState, type ChangeEvent, type FormEvent, type Ref } from 'react';
import { errorMessage } from '../api/http';
import { useToast } from '../shell/toast';
import { FileField } from '../shell/ui/FileField';
import { ProgressBar } from '../shell/ui/ProgressBar';
import { uploadGiftImage, type GiftInput } from './api';
import { readGiftFields, type GiftFields } from './giftCatalog';

const NAME_REQUIRED = 'Nom requis';
const IMAGE_FAILED = "Échec de l'envoi de l'image.";
const IMAGE_SENT = 'Image envoyée.';

interface GiftFieldsEditorProps {
  /** Unique prefix of the input ids. */
  idPrefix: string;
  fields: GiftFields;
  onChange: (update: (current: GiftFields) => GiftFields) => void;
  /** Show 'Nom requis' under the name. */
  nameError: boolean;
  nameRef?: Ref<HTMLInputElement>;
}

/**
 * The state of a form around `GiftFieldsEditor` (add, edit): its fields, and a submit that hands the
 * gift read from them to `onValid`, or says the name is missing and puts the focus on it.
 */
export function useGiftForm(
  initial: GiftFields | (() => GiftFields),
  onNameMissing: () => void,
  onValid: (input: GiftInput) => Promise<unknown>,
) {
  const [fields, setFields] = useState<GiftFields>(initial);
  const [nameError, setNameError] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
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
    await onValid(input);
  };
  const editor = { fields, onChange: setFields, nameError: nameError && fields.name.trim() === '', nameRef };
  return { setFields, nameRef, submit, editor };
}

/** Name, emoji, price (coins) and image (URL, or a file uploaded to POST /api/admin/gifts/image). */
export function GiftFieldsEditor({ idPrefix, fields, onChange, nameError, nameRef }: GiftFieldsEditorProps) {
  const toast = useToast();
  const [fileName, setFileName] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const set = (key: keyof GiftFields) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    onChange((current) => ({ ...current, [key]: value }));
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    setFileName(file.name);
    setProgress(0);
    try {
      const url = await uploadGiftImage(file, setProgress);
      if (url) onChange((current) => ({ ...current, image_url: url }));
      toast.success(IMAGE_SENT);
    } catch (err) {
      toast.error(IMAGE_FAILED, { detail: errorMessage(err) });
      setFileName(null);
      input.value = '';
    } finally {
      setProgress(null);
    }
  };

  const nameErrorId = `${idPrefix}-name-error`;
  return (
    <div className="gift-fields">
      <div className="field">
        <label htmlFor={`${idPrefix}-name`}>Nom</label>
        <input
          ref={nameRef}
          id={`${idPrefix}-name`}
          type="text"
          autoComplete="off"
          maxLength={60}
          aria-required="true"
          aria-invalid={nameError || undefined}
          aria-describedby={nameError ? nameErrorId : undefined}
          value={fields.name}
          onChange={set('name')}
        />
        {nameError ? (
          <p id={nameErrorId} className="field__error">
            {NAME_REQUIRED}
          </p>
        ) : null}
      </div>
      <div className="gift-fields__row">
        <div className="field">
          <label htmlFor={`${idPrefix}-emoji`}>
            Emoji <span className="field__optional">(facultatif)</span>
          </label>
          <input
            id={`${idPrefix}-emoji`}
            type="text"
            autoComplete="off"
            maxLength={16}
            value={fields.emoji}
            onChange={set('emoji')}
          />
        </div>
        <div className="field">
          <label htmlFor={`${idPrefix}-price`}>Prix (coins)</label>
          <input
            id={`${idPrefix}-price`}
            type="number"
            inputMode="numeric"
            min={0}
            max={1_000_000}
            step={1}
            value={fields.price}
            onChange={set('price')}
          />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-image`}>
          Image (URL ou chemin) <span className="field__optional">(facultatif)</span>
        </label>
        <input
          id={`${idPrefix}-image`}
          type="text"
          autoComplete="off"
          placeholder="/uploads/gifts/… ou https://…"
          value={fields.image_url}
          onChange={set('image_url')}
        />
      </div>
      <FileField
        id={`${idPrefix}-file`}
        label="… ou envoyer un fichier image"
        accept="image/*"
        fileName={fileName}
        disabled={progress !== null}
        onChange={(event) => void upload(event)}
      />
      {progress !== null ? <ProgressBar value={progress} label="Envoi de l'image" /> : null}
    </div>
  );
}
