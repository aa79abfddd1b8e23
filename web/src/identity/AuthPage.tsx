import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** Frame of /login and /register, which live outside the common layout. */
export function AuthPage({ title, titleId, children }: { title: string; titleId: string; children: ReactNode }) {
  return (
    <div className="auth">
      <title>{`${title} · EVO`}</title>
      <Link to="/" className="brand auth__brand">
        EVO
      </Link>
      <main className="auth__card" aria-labelledby={titleId}>
        <h1 id={titleId}>{title}</h1>
        {children}
      </main>
    </div>
  );
}
