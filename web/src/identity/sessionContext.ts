import { createContext, useContext } from 'react';
import type { CurrentUser } from './session';

export interface Session {
  /** The stored current user, or null when logged out. */
  user: CurrentUser | null;
  isLoggedIn: boolean;
  /** Client-side admin check (the product roles and permissions); the server enforces the real rule. */
  isAdmin: boolean;
  /** Admin address announced by GET /api/auth/me (`admin_email`), if any. */
  adminEmail: string | null;
  /** True once GET /api/auth/me has answered (or failed). */
  checked: boolean;
  /** Stores the user after a successful login. */
  signIn: (user: CurrentUser) => void;
  /**
   * POST /api/auth/logout, clears the stored user, goes to /login; when the server could not end
   * the session, says so in a toast and stays logged in.
   */
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);

export function useCurrentUser(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useCurrentUser must be used inside <SessionProvider>');
  return session;
}
