import { useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { SendIcon } from '../videos/icons';
import { EmojiButton } from './EmojiPicker';
import './messaging.css';

interface ComposerProps {
  label: string;
  placeholder?: string;
  /** Returns true when the draft may be cleared (sent). Blank drafts are passed too: the caller decides. */
  onSend: (content: string) => Promise<boolean> | boolean;
  sending?: boolean;
  disabled?: boolean;
  /** Shown above the box and announced with it when disabled. */
  disabledReason?: ReactNode;
  /** Extra buttons next to the emoji button (e.g. a gift button). */
  extraActions?: ReactNode;
  sendLabel?: string;
  maxLength?: number;
  /** Rows of the text box (default 2). */
  rows?: number;
}

/**
 * Message box + emoji button + send button. Enter sends, Shift+Enter adds a line;
 * an emoji is inserted at the caret.
 */
export function Composer({
  label,
  placeholder,
  onSend,
  sending = false,
  disabled = false,
  disabledReason,
  extraActions,
  sendLabel = 'Envoyer',
  maxLength = 2000,
  rows = 2,
}: ComposerProps) {
  const [draft, setDraft] = useState('');
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const inputId = useId();
  const reasonId = useId();

  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    if (caret === null || !areaRef.current) return;
    pendingCaret.current = null;
    areaRef.current.focus();
    areaRef.current.setSelectionRange(caret, caret);
  });

  const addEmoji = (emoji: string) => {
    const area = areaRef.current;
    const start = area?.selectionStart ?? draft.length;
    const end = area?.selectionEnd ?? draft.length;
    const next = `${draft.slice(0, start)}${emoji}${draft.slice(end)}`.slice(0, maxLength);
    setDraft(next);
    pendingCaret.current = Math.min(next.length, start + emoji.length);
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (disabled || sending) return;
    if (await onSend(draft)) setDraft('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form className="composer" onSubmit={submit} aria-busy={sending}>
      <label htmlFor={inputId} className="sr-only">
        {label}
      </label>
      {disabled && disabledReason ? (
        <div id={reasonId} className="composer__reason" role="note">
          {disabledReason}
        </div>
      ) : null}
      <textarea
        ref={areaRef}
        id={inputId}
        className="text-input composer__input"
        rows={rows}
        maxLength={maxLength}
        placeholder={placeholder}
        value={draft}
        disabled={disabled}
        aria-describedby={disabled && disabledReason ? reasonId : undefined}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer__bar">
        <EmojiButton onSelect={addEmoji} disabled={disabled} />
        {extraActions}
        <button type="submit" className="btn btn--primary composer__send" disabled={disabled || sending}>
          <SendIcon size={18} />
          {sending ? 'Envoi...' : sendLabel}
        </button>
      </div>
    </form>
  );
}
