import type { InputHTMLAttributes, ReactNode } from 'react';

/** Inline form error: the SPEC message plus, when given, the server's own message. */
export function FormError({ message, detail }: { message: string; detail?: string }) {
  return (
    <div className="form-error" role="alert">
      <p>{message}</p>
      {detail && detail !== message ? <p className="form-error__detail">{detail}</p> : null}
    </div>
  );
}

/** What a field says under its input: a hint, or what is wrong with it. */
export interface FieldNote {
  text: ReactNode;
  /** said as an error (`field__error`), else as a hint (`field__hint`) */
  error: boolean;
  /** the note's id; the input names it in `aria-describedby` */
  id?: string;
  /** announced at once (`role="alert"`) */
  alert?: boolean;
}

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: ReactNode;
  /** said under the input; left out or null, nothing */
  note?: FieldNote | null;
  /** marks the input `aria-invalid` */
  invalid?: boolean;
  /** the input's new value, on each change */
  onValue?: (value: string) => void;
  /** classes added to the field's frame */
  fieldClassName?: string;
};

/** One labelled text input of a form (`.field`): its label above, its note (hint or error) under it. */
export function TextField({ id, label, note, invalid, onValue, fieldClassName, ...input }: TextFieldProps) {
  return (
    <div className={fieldClassName ? `field ${fieldClassName}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={note?.id}
        onChange={onValue ? (event) => onValue(event.target.value) : undefined}
        {...input}
      />
      {note ? <FieldNoteText note={note} /> : null}
    </div>
  );
}

export function FieldNoteText({ note }: { note: FieldNote }) {
  return (
    <p id={note.id} className={note.error ? 'field__error' : 'field__hint'} role={note.alert ? 'alert' : undefined}>
      {note.text}
    </p>
  );
}

/** A form's submit button: says `busyLabel` and is disabled while the form is sent. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  className = 'btn btn--primary btn--block',
  disabled = false,
}: {
  busy: boolean;
  label: ReactNode;
  busyLabel: ReactNode;
  className?: string;
  disabled?: boolean;
}) {
  return (
    <button type="submit" className={className} disabled={busy || disabled}>
      {busy ? busyLabel : label}
    </button>
  );
}
