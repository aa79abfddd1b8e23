import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, errorMessage, setUnauthorizedHandler } from '../api/http';
import { useToast } from '../shell/toast';
import { fetchMe, logout } from './authApi';
import { loginPathFor } from './returnPath';
import {
  clearStoredUser,
  isAdmin,
  readStoredUser,
  storeUser,
  storeVersion,
  subscribeStoredUser,
  type CurrentUser,
} from './session';
import { SessionContext, type Session } from './sessionContext';
import { useSocketEvent } from '../shell/socket';

const readNothing = () => null;
const LOGOUT_FAILED = 'Déconnexion impossible pour le moment : tu es toujours connecté(e). Réessaie.';

/**
 * Holds the current user. The stored user gives an instant first paint; then
 * GET /api/auth/me confirms it, because the server session is the authority.
 * Must sit inside the router (401 → /login?retour=<the page>).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const toast = useToast();
  const user = useSyncExternalStore(subscribeStoredUser, readStoredUser, readNothing);
  const [adminEmail, setAdminEmail] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  const checkedOnce = useRef(false);
  const email = user?.email ?? null;
  // bumped when the server says this member's session changed (a role granted or taken back)
  const [changes, setChanges] = useState(0);
  const sessionChanged = useCallback(() => setChanges((n) => n + 1), []);

  // Confirm with the server on start, and again after each login (for admin_email).
  useEffect(() => {
    if (checkedOnce.current && email === null) return;
    if (email === null) {
      // nobody stored: nothing to confirm (and no 401 to log in the console)
      checkedOnce.current = true;
      setChecked(true);
      return;
    }
    const controller = new AbortController();
    const versionAtStart = storeVersion();
    fetchMe(controller.signal)
      .then((me) => {
        if (storeVersion() !== versionAtStart) return; // a newer login/logout happened meanwhile
        setAdminEmail(me.adminEmail);
        if (!me.user) {
          if (readStoredUser()) clearStoredUser();
        } else if (JSON.stringify(me.user) !== JSON.stringify(readStoredUser())) {
          storeUser(me.user);
        }
      })
      .catch(() => {
        // server unreachable: keep the stored user, calls will tell later
      })
      .finally(() => {
        if (controller.signal.aborted) return;
        checkedOnce.current = true;
        setChecked(true);
      });
    return () => controller.abort();
  }, [email, changes]);

  // Any API call answered 401 means the session is gone: log in, then come back here.
  useEffect(
    () =>
      setUnauthorizedHandler(() => {
        clearStoredUser();
        navigate(loginPathFor(window.location), { replace: true });
      }),
    [navigate],
  );

  const signIn = useCallback((next: CurrentUser) => storeUser(next), []);

  const signOut = useCallback(async () => {
    try {
      await logout();
    } catch (err) {
      // the server kept the session (a full disk, or it was not reached): the member stays logged
      // in and is told so, rather than shown logged out while the session goes on working
      if (!(err instanceof ApiError && err.status === 401)) {
        toast.error((err instanceof ApiError && !err.isNetworkError && errorMessage(err)) || LOGOUT_FAILED);
        return;
      }
      // already logged out on the server
    }
    clearStoredUser();
    setAdminEmail(null);
    navigate('/login');
  }, [navigate, toast]);

  const value = useMemo<Session>(
    () => ({
      user,
      isLoggedIn: user !== null,
      isAdmin: isAdmin(user, adminEmail),
      adminEmail,
      checked,
      signIn,
      signOut,
    }),
    [user, adminEmail, checked, signIn, signOut],
  );

  return (
    <SessionContext.Provider value={value}>
      <SessionChanges onChanged={sessionChanged} />
      {children}
    </SessionContext.Provider>
  );
}

/**
 * Inside the provider (the socket follows the session): asks the server again on 'session:changed',
 * and after each (re)connection ('sync'), since a change pushed while disconnected is not replayed.
 */
function SessionChanges({ onChanged }: { onChanged: () => void }) {
  useSocketEvent('session:changed', onChanged);
  useSocketEvent('sync', onChanged);
  return null;
}
