import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { positionFromString, type LogPosition } from '@evo/domain';
import { childLogger, ServiceUnavailableError, type ReadStore } from '@evo/infra';
import { MESSAGES } from './errors';
import {
  ADMINS_ROOM,
  CATALOGUE_ROOM,
  identityQueries,
  messagingQueries,
  notificationsQueries,
  readCheckpoint,
} from '@evo/projections';
import { sessionRoom, type Sessions } from './session';
import { CSRF_MESSAGE, isForeignOrigin } from './csrf';
import { HOST_MESSAGE, type ServedHosts } from './host-guard';
import type { SyncPayload } from '@evo/contracts';

const log = childLogger('socket');

/** At most this many notifications and messages in one 'sync'; beyond, `truncated` tells the client to reload. */
export const SYNC_LIMIT = 200;
/** Video rooms a client may watch at once (counters and new comments of the cards on screen). */
export const MAX_WATCHED_VIDEOS = 50;

export type { SyncPayload };

/** `auth.since` as the client sends it: a decimal log position; anything else means "no position". */
export function parseSince(raw: unknown): LogPosition | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const s = String(raw);
  return /^\d{1,40}$/.test(s) ? positionFromString(s) : undefined;
}

/**
 * The catch-up of one member since `since`. The checkpoint is read first: everything up to it is in
 * the answer, and everything after it is pushed to the member's room, which they joined before
 * (they may get a change twice, never miss one; notifications and messages carry ids to dedupe).
 * Without `since` the lists are empty and `truncated` is true: the server cannot tell what the client
 * missed between its HTTP loads and this connection (a message sent in that gap is pushed to nobody),
 * so the client loads its lists again and keeps `position` for the next connection.
 */
export async function syncPayload(
  read: ReadStore,
  userId: string,
  since: LogPosition | undefined,
): Promise<SyncPayload> {
  const checkpoint = (await readCheckpoint(read)) ?? 0n;
  const notifications = notificationsQueries(read);
  const unread = await notifications.unread(userId);
  const empty = {
    notifications: [],
    deleted_notification_ids: [],
    messages: [],
    hidden_conversations: [],
    truncated: false,
  };
  if (since === undefined) return { ...empty, unread, position: checkpoint.toString(), truncated: true };
  const messaging = messagingQueries(read);
  const [changed, sent, hidden] = await Promise.all([
    notifications.changedSince(userId, since, SYNC_LIMIT),
    messaging.since(userId, since, SYNC_LIMIT),
    messaging.hiddenSince(userId, since),
  ]);
  return {
    notifications: changed.notifications,
    deleted_notification_ids: changed.deleted,
    messages: sent.messages,
    hidden_conversations: hidden,
    unread,
    position: checkpoint.toString(),
    truncated: changed.truncated || sent.truncated,
  };
}

function watchVideos(socket: Socket) {
  const videoRoom = (id: unknown) =>
    typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? `video:${id}` : undefined;
  // an optional acknowledgement answers whether the socket now watches (or no longer watches) the video
  socket.on('video:watch', (id: unknown, ack?: unknown) => {
    const room = videoRoom(id);
    const watched = [...socket.rooms].filter((r) => r.startsWith('video:')).length;
    const ok = !!room && (socket.rooms.has(room) || watched < MAX_WATCHED_VIDEOS);
    if (ok) void socket.join(room);
    if (typeof ack === 'function') ack(ok);
  });
  socket.on('video:unwatch', (id: unknown, ack?: unknown) => {
    const room = videoRoom(id);
    if (room) void socket.leave(room);
    if (typeof ack === 'function') ack(!!room);
  });
}

export interface SocketServerOptions {
  /** how often this process checks that the sessions of its sockets still exist (expiry); 60 s */
  sessionCheckMs?: number;
  /** the host names the product serves: a handshake naming another is refused (DNS rebinding) */
  hosts?: ServedHosts;
}

/**
 * Socket.IO on the API server. A client is identified by its session cookie, never by what it
 * says: it joins `user:<id>` (and `admins` for administrators) and receives the change
 * messages projectors publish there; every client is also in `catalogue` (catalogue edits). On
 * connection it gets a 'sync' of what it missed since the position it gives in `auth.since`. It may also watch video rooms (`video:watch` / `video:unwatch`
 * with a video id) for the public counters and comments of the cards it shows.
 *
 * The handshake is refused for a host name the product does not serve (the HTTP host guard's rule)
 * and from another site's page (the HTTP CSRF guard's rule). Every socket
 * also joins its session's room (`sessionRoom`): ending a session (logout, a new login) disconnects
 * them all, on every API process through the Redis adapter; a session that expired is found by
 * a periodic check of the sessions this process holds sockets for.
 */
/** A refused handshake: the client's `connect_error` carries the message and, in `data`, the HTTP status it stands for. */
function handshakeError(message: string, status: number): Error & { data: { status: number } } {
  return Object.assign(new Error(message), { data: { status } });
}

export function createSocketServer(
  http: HttpServer,
  sessions: Sessions,
  read: ReadStore,
  options: SocketServerOptions = {},
): Server {
  const io = new Server(http, {
    serveClient: false,
    cors: undefined,
    // another site's page must not open a socket with the member's cookie, nor a page of a name
    // that was made to resolve to this machine
    allowRequest: (req, callback) => {
      if (options.hosts && !options.hosts.servesHeaders(req.headers)) return callback(HOST_MESSAGE, false);
      const foreign = isForeignOrigin(req.headers);
      callback(foreign ? CSRF_MESSAGE : null, !foreign);
    },
  });
  const queries = identityQueries(read);
  io.use((socket, next) => {
    sessions
      .fromCookieHeader(socket.handshake.headers.cookie)
      .then(async (session) => {
        if (!session) return next(handshakeError('Tu dois être connecté(e).', 401));
        socket.data.userId = session.data.userId;
        socket.data.sessionId = session.id;
        await socket.join(sessionRoom(session.id));
        // joined before the sync is read: nothing committed in between can be missed
        await socket.join(`user:${session.data.userId}`);
        // every client hears of catalogue edits ('catalogue:changed')
        await socket.join(CATALOGUE_ROOM);
        const user = await queries.userById(session.data.userId);
        if (user?.is_admin) await socket.join(ADMINS_ROOM);
        next();
      })
      .catch((err: unknown) => {
        // Redis (the sessions) away: the client is told in French, as an HTTP request would be
        if (err instanceof ServiceUnavailableError) {
          log.warn({ reason: err.message }, 'socket handshake: service unavailable');
          return next(handshakeError(MESSAGES.unavailable, 503));
        }
        log.error({ err }, 'socket handshake failed');
        next(handshakeError(MESSAGES.internal, 500));
      });
  });
  // a session ended here: its sockets close here and, through the Redis adapter, everywhere
  sessions.onEnded((sessionId) => io.in(sessionRoom(sessionId)).disconnectSockets(true));
  sessions.onMemberSessionsEnded((userId, kept) => {
    const member = io.in(`user:${userId}`);
    (kept ? member.except(sessionRoom(kept)) : member).disconnectSockets(true);
  });
  const expiryCheck = setInterval(() => {
    void disconnectExpired(io, sessions).catch((err: unknown) => log.error({ err }, 'session check failed'));
  }, options.sessionCheckMs ?? 60_000);
  expiryCheck.unref();
  http.once('close', () => clearInterval(expiryCheck));
  io.on('connection', (socket) => {
    watchVideos(socket);
    const userId = socket.data.userId as string;
    syncPayload(read, userId, parseSince((socket.handshake.auth as { since?: unknown } | undefined)?.since))
      .then((payload) => {
        if (socket.connected) socket.emit('sync', payload);
      })
      .catch((err: unknown) => log.error({ err, userId }, 'sync failed'));
  });
  return io;
}

/** Disconnects this process's sockets whose session expired (or was ended without telling us). */
async function disconnectExpired(io: Server, sessions: Sessions): Promise<void> {
  const bySession = new Map<string, Socket[]>();
  for (const socket of io.of('/').sockets.values()) {
    const id = socket.data.sessionId as string | undefined;
    if (id) bySession.set(id, [...(bySession.get(id) ?? []), socket]);
  }
  for (const [id, sockets] of bySession) {
    if (await sessions.isLive(id)) continue;
    for (const socket of sockets) socket.disconnect(true);
  }
}
