import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';

/** Inline form error: the SPEC message plus, when given, the server's own message. */
export function FormError({ message, detail, id }: { message: string; detail?: string; id?: string }) {
  return (
    <div id={id} className="form-error" role="alert">
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

/** What every field of a form has beside its control. */
interface FieldProps {
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
}

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & FieldProps;
export type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & FieldProps;

/** A field's frame (`.field`): its label above the control, its note (hint or error) under it. */
function Field({ id, label, note, fieldClassName, children }: FieldProps & { children: ReactNode }) {
  return (
    <div className={fieldClassName ? `field ${fieldClassName}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {note ? <FieldNoteText note={note} /> : null}
    </div>
  );
}

/** The control's attributes that its field gives it: id, state, description, change handler. */
function controlProps<E extends HTMLInputElement | HTMLTextAreaElement>({ id, note, invalid, onValue }: FieldProps) {
  return {
    id,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': note?.id,
    onChange: onValue ? (event: { target: E }) => onValue(event.target.value) : undefined,
  };
}

/** One labelled text input of a form. */
export function TextField({ id, label, note, invalid, onValue, fieldClassName, ...input }: TextFieldProps) {
  const field = { id, label, note, invalid, onValue, fieldClassName };
  return (
    <Field {...field}>
      <input {...controlProps<HTMLInputElement>(field)} {...input} />
    </Field>
  );
}

/** One labelled text area of a form. */
export function TextAreaField({ id, label, note, invalid, onValue, fieldClassName, ...area }: TextAreaFieldProps) {
  const field = { id, label, note, invalid, onValue, fieldClassName };
  return (
    <Field {...field}>
      <textarea {...controlProps<HTMLTextAreaElement>(field)} {...area} />
    </Field>
  );
}

/** The email field of the sign-in forms (login, forgotten password). */
export function EmailField(props: Omit<TextFieldProps, 'label' | 'type'>) {
  return <TextField label="Email" type="email" name="email" autoComplete="email" required {...props} />;
}

/** A password field: the member's current password (named, required), or a new one (`choosing`). */
export function PasswordField({ choosing = false, ...props }: Omit<TextFieldProps, 'type'> & { choosing?: boolean }) {
  return choosing ? (
    <TextField type="password" autoComplete="new-password" {...props} />
  ) : (
    <TextField type="password" name="password" autoComplete="current-password" required {...props} />
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
