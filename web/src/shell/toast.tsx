import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/**
 * In-app toasts replacing window.alert. Success/info toasts are announced
 * politely (role="status") and clear after 2 s by default (the product business constants);
 * errors are assertive (role="alert") and stay until closed or 8 s.
 */

export type ToastKind = 'success' | 'info' | 'error';

export interface ToastOptions {
  /** Second line, e.g. the server's own French message. */
  detail?: string;
  /** Milliseconds before auto-dismiss; 0 keeps it until closed. */
  duration?: number;
}

export interface ToastApi {
  show: (kind: ToastKind, message: string, options?: ToastOptions) => number;
  success: (message: string, options?: ToastOptions) => number;
  info: (message: string, options?: ToastOptions) => number;
  error: (message: string, options?: ToastOptions) => number;
  dismiss: (id: number) => void;
}

interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  detail?: string;
}

const DEFAULT_DURATION: Record<ToastKind, number> = { success: 2000, info: 4000, error: 8000 };

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, number>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer !== undefined) window.clearTimeout(timer);
    timers.current.delete(id);
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback(
    (kind: ToastKind, message: string, options: ToastOptions = {}) => {
      const id = nextId.current++;
      setToasts((current) => [...current.slice(-3), { id, kind, message, detail: options.detail }]);
      const duration = options.duration ?? DEFAULT_DURATION[kind];
      if (duration > 0)
        timers.current.set(
          id,
          window.setTimeout(() => dismiss(id), duration),
        );
      return id;
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) window.clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const apiValue = useMemo<ToastApi>(
    () => ({
      show,
      success: (message, options) => show('success', message, options),
      info: (message, options) => show('info', message, options),
      error: (message, options) => show('error', message, options),
      dismiss,
    }),
    [show, dismiss],
  );

  const polite = toasts.filter((toast) => toast.kind !== 'error');
  const assertive = toasts.filter((toast) => toast.kind === 'error');

  return (
    <ToastContext.Provider value={apiValue}>
      {children}
      <div className="toasts">
        {/* Live regions stay mounted so screen readers announce what is added. */}
        <div role="status" aria-live="polite" className="toasts__region">
          {polite.map((toast) => (
            <ToastItem key={toast.id} toast={toast} onClose={dismiss} />
          ))}
        </div>
        <div role="alert" aria-live="assertive" className="toasts__region">
          {assertive.map((toast) => (
            <ToastItem key={toast.id} toast={toast} onClose={dismiss} />
          ))}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onClose }: { toast: Toast; onClose: (id: number) => void }) {
  return (
    <div className={`toast toast--${toast.kind}`}>
      <div className="toast__text">
        <p className="toast__message">{toast.message}</p>
        {toast.detail ? <p className="toast__detail">{toast.detail}</p> : null}
      </div>
      <button type="button" className="toast__close" aria-label="Fermer le message" onClick={() => onClose(toast.id)}>
        ×
      </button>
    </div>
  );
}

export function useToast(): ToastApi {
  const toast = useContext(ToastContext);
  if (!toast) throw new Error('useToast must be used inside <ToastProvider>');
  return toast;
}
