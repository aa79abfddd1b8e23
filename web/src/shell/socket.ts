import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import type { PushEventName, PushEvents } from '@evo/contracts';
import { useCurrentUser } from '../identity/sessionContext';
import { whenFirstScreenShown } from './firstScreen';

/**
 * One lazily created socket.io connection to the same origin, with the session
 * cookie. socket.io-client itself is loaded on demand (kept out of the initial
 * bundle) and the connection is open only while someone is logged in.
 *
 *   useSocketEvent('notification', (payload) => ...);
 */

let socketPromise: Promise<Socket> | null = null;
let wanted = false;

/*
 * Catch-up position: every server payload may carry `position` (the log position it
 * reflects, a bigint as a string). The last one seen is kept in memory and in
 * sessionStorage, for the current member only, and sent as `auth: { since }` on each
 * (re)connection so that the server's 'sync' answer holds only what was missed.
 */
const POSITION_KEY = 'evo.socket.position';
let positionOwner: string | null = null;
let lastPosition: string | null = null;

function readStoredPosition(owner: string): string | null {
  try {
    const stored = JSON.parse(window.sessionStorage.getItem(POSITION_KEY) ?? 'null') as {
      owner?: unknown;
      position?: unknown;
    } | null;
    return stored?.owner === owner && typeof stored.position === 'string' ? stored.position : null;
  } catch {
    return null;
  }
}

function setPositionOwner(owner: string | null): void {
  if (owner === positionOwner) return;
  positionOwner = owner;
  lastPosition = owner ? readStoredPosition(owner) : null;
}

function isNewer(candidate: string, current: string | null): boolean {
  if (current === null) return true;
  try {
    return BigInt(candidate) > BigInt(current);
  } catch {
    return candidate !== current;
  }
}

/** Remembers the position of a server payload (ignored unless newer). */
export function notePosition(position: unknown): void {
  if (typeof position !== 'string' && typeof position !== 'number' && typeof position !== 'bigint') return;
  const value = String(position);
  if (!positionOwner || value === '' || !isNewer(value, lastPosition)) return;
  lastPosition = value;
  try {
    window.sessionStorage.setItem(POSITION_KEY, JSON.stringify({ owner: positionOwner, position: value }));
  } catch {
    // storage disabled: memory only
  }
}

/** Last position seen by this tab for the current member, or null. */
export function lastSeenPosition(): string | null {
  return lastPosition;
}

function loadSocket(): Promise<Socket> {
  // live updates wait for the first screen: it has the bandwidth to itself
  socketPromise ??= whenFirstScreenShown()
    .then(() => import('socket.io-client'))
    .then(({ io }) => {
      const socket = io({
        withCredentials: true,
        autoConnect: false,
        // evaluated on every (re)connection
        auth: (send) => send(lastPosition ? { since: lastPosition } : {}),
      });
      socket.onAny((_event: string, payload: unknown) => {
        if (payload && typeof payload === 'object' && 'position' in payload) notePosition(payload.position);
      });
      return socket;
    });
  return socketPromise;
}

/*
 * Server-side rooms the page asks to be in (e.g. `video:watch` for the counters of the cards
 * on screen). Rooms belong to one connection: they are asked again after every reconnection.
 * Counted per key, so two components watching the same room leave it only once both are gone.
 */
const rooms = new Map<string, { join: string; arg: string | number; count: number }>();
const hookedSockets = new WeakSet<Socket>();

function hookRooms(socket: Socket): void {
  if (hookedSockets.has(socket)) return;
  hookedSockets.add(socket);
  socket.on('connect', () => {
    for (const room of rooms.values()) socket.emit(room.join, room.arg);
  });
}

/** While mounted and logged in: emits `join(arg)` now and after each reconnection, `leave(arg)` at the end. */
export function useSocketRoom(join: string, leave: string, arg: string | number | null): void {
  const { isLoggedIn } = useCurrentUser();
  useEffect(() => {
    if (!isLoggedIn || arg === null) return;
    const key = `${join}|${String(arg)}`;
    const existing = rooms.get(key);
    if (existing) existing.count += 1;
    else rooms.set(key, { join, arg, count: 1 });
    void loadSocket().then((socket) => {
      hookRooms(socket);
      if (!existing && rooms.has(key) && socket.connected) socket.emit(join, arg);
    });
    return () => {
      const room = rooms.get(key);
      if (!room) return;
      room.count -= 1;
      if (room.count > 0) return;
      rooms.delete(key);
      void loadSocket().then((socket) => {
        if (!rooms.has(key) && socket.connected) socket.emit(leave, arg);
      });
    };
  }, [join, leave, arg, isLoggedIn]);
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
    setPositionOwner(email);
    setConnected(true);
    return () => setConnected(false); // reconnects with the new cookie if the user changes
  }, [isLoggedIn, email]);
}

/** Handlers of server events, by event; each payload is the contract's (`PushEvents`). */
export type PushHandlers = { [E in PushEventName]?: (payload: PushEvents[E]) => void };

/**
 * Subscribes to server events while logged in; the latest handlers are always used. Events and their
 * payloads are the contract's (`PushEvents`); a handler may still take `unknown` and decode it.
 */
export function useSocketEvents(handlers: PushHandlers): void {
  const { isLoggedIn } = useCurrentUser();
  const handlersRef = useRef(handlers);
  useLayoutEffect(() => {
    handlersRef.current = handlers;
  });
  const events = Object.keys(handlers).sort().join(' ');

  useEffect(() => {
    if (!isLoggedIn || events === '') return;
    let cancelled = false;
    let detach: (() => void) | undefined;
    void loadSocket().then((socket) => {
      if (cancelled) return;
      const detaches = events.split(' ').map((name) => {
        // socket.io-client types listeners loosely; the payload's type is the contract's
        const listener = (payload: unknown) =>
          (handlersRef.current as Record<string, ((payload: unknown) => void) | undefined>)[name]?.(payload);
        socket.on(name, listener);
        return () => socket.off(name, listener);
      });
      detach = () => detaches.forEach((off) => off());
    });
    return () => {
      cancelled = true;
      detach?.();
    };
  }, [events, isLoggedIn]);
}

/** Subscribes to one server event while logged in (see `useSocketEvents`). */
export function useSocketEvent<E extends PushEventName>(event: E, handler: (payload: PushEvents[E]) => void): void {
  useSocketEvents({ [event]: handler } as PushHandlers);
}
