import type { ChangeEvent, Ref } from 'react';

interface FileFieldProps {
  id: string;
  label: string;
  accept: string;
  fileName: string | null;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  required?: boolean;
  disabled?: boolean;
  /** Error shown under the field (role="alert"). */
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * File input with French texts (the native one speaks the browser's language).
 * The real input covers the styled box, so clicks, keyboard and screen readers
 * use it directly; its accessible name is the field label only.
 */
export function FileField({
  id,
  label,
  accept,
  fileName,
  onChange,
  required,
  disabled,
  error,
  inputRef,
}: FileFieldProps) {
  const labelId = `${id}-label`;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label id={labelId} htmlFor={id}>
        {label}
      </label>
      <div className={disabled ? 'file-picker file-picker--disabled' : 'file-picker'}>
        <input
          ref={inputRef}
          id={id}
          className="file-picker__input"
          type="file"
          accept={accept}
          aria-labelledby={labelId}
          aria-required={required}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={errorId}
          disabled={disabled}
          onChange={onChange}
        />
        <span className="file-picker__button" aria-hidden="true">
          Choisir un fichier
        </span>
        <span className="file-picker__name" aria-hidden="true">
          {fileName ?? 'Aucun fichier choisi'}
        </span>
      </div>
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
