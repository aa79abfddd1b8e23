import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { useCurrentUser } from '../identity/sessionContext';

/**
 * One lazily created socket.io connection to the same origin, with the session
 * cookie. socket.io-client itself is loaded on demand (kept out of the initial
 * bundle) and the connection is open only while someone is logged in.
 *
 *   useSocketEvent('notification', (payload) => ...);
 */

let socketPromise: Promise<Socket> | null = null;
let wanted = false;

function loadSocket(): Promise<Socket> {
  socketPromise ??= import('socket.io-client').then(({ io }) => io({ withCredentials: true, autoConnect: false }));
  return socketPromise;
}

/** Opens (true) or closes (false) the shared connection. */
function setConnected(connected: boolean): void {
  wanted = connected;
  if (!connected && !socketPromise) return;
  void loadSocket().then((socket) => {
    if (wanted && !socket.connected) socket.connect();
    if (!wanted && (socket.connected || socket.active)) socket.disconnect();
  });
}

/** Mounted once by the shell: keeps the connection in step with the session. */
export function useSocketLifecycle(): void {
  const { isLoggedIn, user } = useCurrentUser();
  const email = user?.email ?? null;
  useEffect(() => {
    if (!isLoggedIn) {
      setConnected(false);
      return;
    }
    setConnected(true);
    return () => setConnected(false); // reconnects with the new cookie if the user changes
  }, [isLoggedIn, email]);
}

/** Subscribes to a server event while logged in; the latest handler is always used. */
export function useSocketEvent<T = unknown>(event: string, handler: (payload: T) => void): void {
  const { isLoggedIn } = useCurrentUser();
  const handlerRef = useRef(handler);
  useLayoutEffect(() => {
    handlerRef.current = handler;
  });

  useEffect(() => {
    if (!isLoggedIn) return;
    let cancelled = false;
    let detach: (() => void) | undefined;
    const listener = (payload: T) => handlerRef.current(payload);
    void loadSocket().then((socket) => {
      if (cancelled) return;
      socket.on(event, listener);
      detach = () => socket.off(event, listener);
    });
    return () => {
      cancelled = true;
      detach?.();
    };
  }, [event, isLoggedIn]);
}
