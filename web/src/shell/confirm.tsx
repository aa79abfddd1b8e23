import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';

/**
 * Accessible confirm dialog replacing window.confirm:
 * `if (await confirm('Supprimer cette vidéo ?')) ...`.
 * role="dialog" + aria-modal, focus trapped inside, Escape or the backdrop cancels,
 * focus goes back to where it was. The page behind is inert while it is open.
 */

export interface ConfirmOptions {
  confirmLabel?: string;
  cancelLabel?: string;
  /** Styles the confirm button as destructive. */
  danger?: boolean;
  /** lines under the question: what exactly will happen (amounts, consequences) */
  details?: readonly string[];
}

export type ConfirmFn = (message: string, options?: ConfirmOptions) => Promise<boolean>;

/** An optional choice among `choices` (radio buttons, none checked at first): the one picked, null for none. */
export type ChooseFn = (
  message: string,
  choices: readonly string[],
  options?: ConfirmOptions,
) => Promise<{ choice: string | null } | null>;

interface Pending extends ConfirmOptions {
  message: string;
  choices?: readonly string[];
  resolve: (answer: boolean, choice: string | null) => void;
}

const ConfirmContext = createContext<{ confirm: ConfirmFn; choose: ChooseFn } | null>(null);

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  const open = useCallback(
    (pendingOf: (resolve: Pending['resolve']) => Pending) =>
      new Promise<{ answer: boolean; choice: string | null }>((done) => {
        returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        setPending((previous) => {
          previous?.resolve(false, null);
          return pendingOf((answer, choice) => done({ answer, choice }));
        });
      }),
    [],
  );

  const confirm = useCallback<ConfirmFn>(
    async (message, options = {}) => (await open((resolve) => ({ ...options, message, resolve }))).answer,
    [open],
  );

  const choose = useCallback<ChooseFn>(
    async (message, choices, options = {}) => {
      const { answer, choice } = await open((resolve) => ({ ...options, message, choices, resolve }));
      return answer ? { choice } : null;
    },
    [open],
  );

  const value = useMemo(() => ({ confirm, choose }), [confirm, choose]);

  const close = useCallback(
    (answer: boolean, choice: string | null = null) => {
      pending?.resolve(answer, choice);
      setPending(null);
      const target = returnFocus.current;
      returnFocus.current = null;
      window.setTimeout(() => target?.focus(), 0);
    },
    [pending],
  );

  return (
    <ConfirmContext.Provider value={value}>
      <div className="app-root" inert={pending !== null}>
        {children}
      </div>
      {pending ? <ConfirmDialog pending={pending} onClose={close} /> : null}
    </ConfirmContext.Provider>
  );
}

function ConfirmDialog({
  pending,
  onClose,
}: {
  pending: Pending;
  onClose: (answer: boolean, choice?: string | null) => void;
}) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const messageId = useId();
  const detailsId = useId();
  const choiceName = useId();
  const [choice, setChoice] = useState<string | null>(null);

  useEffect(() => {
    cancelRef.current?.focus(); // the least destructive choice gets focus first
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose(false);
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (focusable.length === 0) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="dialog-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose(false)}>
      <div
        ref={dialogRef}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={messageId}
        aria-describedby={pending.details?.length ? detailsId : undefined}
        onKeyDown={onKeyDown}
      >
        <p id={messageId} className="dialog__message">
          {pending.message}
        </p>
        {pending.details?.length ? (
          <ul id={detailsId} className="dialog__details">
            {pending.details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
        {pending.choices ? (
          <fieldset className="dialog__choices" aria-labelledby={messageId}>
            {pending.choices.map((option) => (
              <label key={option} className="dialog__choice">
                <input
                  type="radio"
                  name={choiceName}
                  value={option}
                  checked={choice === option}
                  onChange={() => setChoice(option)}
                />
                {option}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div className="dialog__actions">
          <button ref={cancelRef} type="button" className="btn btn--ghost" onClick={() => onClose(false)}>
            {pending.cancelLabel ?? 'Annuler'}
          </button>
          <button
            type="button"
            className={pending.danger ? 'btn btn--danger' : 'btn btn--primary'}
            onClick={() => onClose(true, choice)}
          >
            {pending.confirmLabel ?? 'Confirmer'}
          </button>
        </div>
      </div>
    </div>
  );
}

export function useConfirm(): ConfirmFn {
  const context = useContext(ConfirmContext);
  if (!context) throw new Error('useConfirm must be used inside <ConfirmProvider>');
  return context.confirm;
}

export function useChoose(): ChooseFn {
  const context = useContext(ConfirmContext);
  if (!context) throw new Error('useChoose must be used inside <ConfirmProvider>');
  return context.choose;
}
