import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { isAbortError } from '../api/http';

/**
 * Frame of the sign-in pages (/login, /register, the forgotten password's two), which live outside the
 * common layout: the title, the page's form, then the line leading to the other page (`other`).
 */
export function AuthPage({
  title,
  titleId,
  other,
  children,
}: {
  title: string;
  titleId: string;
  other: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="auth">
      <title>{`${title} · EVO`}</title>
      <Link to="/" className="brand auth__brand">
        EVO
      </Link>
      <main className="auth__card" aria-labelledby={titleId}>
        <h1 id={titleId}>{title}</h1>
        {children}
        <p className="auth__switch">{other}</p>
      </main>
    </div>
  );
}

/** What a sign-in form says when its send failed (`FormError`): the message, and the server's own words when it gave any. */
export interface FormFailure {
  message: string;
  detail?: string;
}

/**
 * A sign-in form's send: busy while it runs, its failure shown until the next try (`failed` words it); a send
 * cut short because the page was left says nothing.
 */
export function useFormSend() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormFailure | null>(null);
  const send = async (run: () => Promise<void>, failed: (err: unknown) => FormFailure) => {
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (err) {
      if (!isAbortError(err)) setError(failed(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, send };
}
