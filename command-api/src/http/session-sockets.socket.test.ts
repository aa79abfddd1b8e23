import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import type { Server } from 'socket.io';
import {
  attachRedisAdapter,
  SqliteReadStore,
  MemorySessionStore,
  RedisSessionStore,
  type SessionStore,
} from '@evo/infra';
import { Client } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { SESSION_COOKIE, Sessions } from './session';
import { createSocketServer } from './socket';

/**
 * Sockets follow their session (issue 11 items 1 and 2): logout, a new login and expiry close every
 * socket of the session, on every API process; another site's page cannot open one.
 */
const sockets: Socket[] = [];
afterEach(() => {
  while (sockets.length) sockets.pop()!.disconnect();
});

function open(url: string, cookie: string, extraHeaders: Record<string, string> = {}, transport = 'websocket') {
  const socket = connect(url, {
    transports: [transport],
    forceNew: true,
    extraHeaders: { cookie, ...extraHeaders },
    reconnection: false,
  });
  sockets.push(socket);
  return socket;
}

/** Resolves once the socket got its 'sync' (it is connected and in its rooms). */
const synced = (socket: Socket) =>
  new Promise<void>((resolve, reject) => {
    socket.once('sync', () => resolve());
    socket.once('connect_error', reject);
  });

const disconnected = (socket: Socket) =>
  new Promise<string>((resolve) => {
    if (!socket.connected) resolve('already');
    socket.once('disconnect', (reason) => resolve(reason));
  });

const refused = (socket: Socket) =>
  new Promise<Error | 'synced'>((resolve) => {
    socket.once('connect_error', resolve);
    socket.once('sync', () => resolve('synced'));
  });

describe('sockets of a session, on the product', () => {
  const t = serverFixture({ members: 2 });
  const [owner, fan] = t.members;
  let videoId: number;

  beforeAll(async () => {
    videoId = await t.firstVideoId(owner.client, owner.member.pseudo);
  });

  const io = () => (t.server.deps.push as unknown as { io: Server }).io;
  const socketsOf = async (userId: string) => (await io().in(`user:${userId}`).fetchSockets()).length;

  it('closes every socket of a session at logout, and only those', async () => {
    const other = new Client(t.server.url);
    expect(
      (await other.post('/api/auth/login', { email: owner.member.email, password: owner.member.password })).status,
    ).toBe(200);
    const [a, b, elsewhere] = [
      open(t.server.url, owner.client.cookie),
      open(t.server.url, owner.client.cookie),
      open(t.server.url, other.cookie),
    ];
    await Promise.all([synced(a), synced(b), synced(elsewhere)]);
    // while logged in, a comment on their video reaches them
    const pushed = new Promise((resolve) => a.once('notification:new', resolve));
    expect((await fan.client.post(`/api/videos/${videoId}/comment`, { content: 'Bravo !' })).status).toBe(201);
    await pushed;

    const ends = [disconnected(a), disconnected(b)];
    expect((await owner.client.post('/api/auth/logout')).status).toBe(204);
    expect(await Promise.all(ends)).toEqual(['io server disconnect', 'io server disconnect']);
    const userId = await t.userId(owner.member.email);
    // the other session's socket stays, alone in the member's room: later pushes reach only it
    expect(elsewhere.connected).toBe(true);
    expect(await socketsOf(userId)).toBe(1);
    const next = new Promise((resolve) => elsewhere.once('notification:new', resolve));
    expect((await fan.client.post(`/api/videos/${videoId}/comment`, { content: 'Encore !' })).status).toBe(201);
    await next;
    expect(a.connected || b.connected).toBe(false);
  });

  it('closes the sockets of the session a new login replaces', async () => {
    const m = await t.member();
    const socket = open(t.server.url, m.client.cookie);
    await synced(socket);
    const end = disconnected(socket);
    expect(
      (await m.client.post('/api/auth/login', { email: m.member.email, password: m.member.password })).status,
    ).toBe(200);
    expect(await end).toBe('io server disconnect');
  });

  it("refuses a handshake from another site's page, as the HTTP guard does", async () => {
    for (const transport of ['websocket', 'polling']) {
      const foreign = open(t.server.url, fan.client.cookie, { origin: 'https://evil.example' }, transport);
      expect(await refused(foreign)).toBeInstanceOf(Error);
      const crossSite = open(t.server.url, fan.client.cookie, { 'sec-fetch-site': 'cross-site' }, transport);
      expect(await refused(crossSite)).toBeInstanceOf(Error);
      const own = open(t.server.url, fan.client.cookie, { origin: t.server.url }, transport);
      expect(await refused(own)).toBe('synced');
    }
  });
});

/** A Socket.IO server as server/src/embedded.ts builds it, on its own HTTP server. */
async function socketServer(
  sessions: Sessions,
  options: { sessionCheckMs?: number; redis?: { url: string; key: string } } = {},
) {
  const http: HttpServer = createServer();
  const io = createSocketServer(http, sessions, SqliteReadStore.temporary(), {
    sessionCheckMs: options.sessionCheckMs,
  });
  const closeRedis = options.redis
    ? await attachRedisAdapter(io, options.redis.url, { key: options.redis.key })
    : undefined;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    async close() {
      await io.close();
      await closeRedis?.();
    },
  };
}

const SECRET = 'un-secret-de-test-assez-long';
const cookieOf = (value: string) => `${SESSION_COOKIE}=${value}`;

describe('sockets of an expired session', () => {
  it('are closed once the session expired', async () => {
    const store = new MemorySessionStore();
    const sessions = new Sessions(store, SECRET, { ttlSeconds: 1 });
    const server = await socketServer(sessions, { sessionCheckMs: 100 });
    try {
      const { cookieValue } = await sessions.open('u-expire');
      const socket = open(server.url, cookieOf(cookieValue));
      await synced(socket);
      expect(await disconnected(socket)).toBe('io server disconnect');
      // and it cannot come back
      expect(await refused(open(server.url, cookieOf(cookieValue)))).toBeInstanceOf(Error);
    } finally {
      await server.close();
      await store.close();
    }
  });
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('cross-process socket test skipped: REDIS_URL is not set');

describe.skipIf(!redisUrl)('sockets of a session on another API process', () => {
  it('are closed by a logout on this one, through the Redis adapter', async () => {
    const key = `evo-test-${randomUUID()}`;
    const stores: SessionStore[] = [
      new RedisSessionStore(redisUrl!, `${key}:sess:`),
      new RedisSessionStore(redisUrl!, `${key}:sess:`),
    ];
    const [here, there] = stores.map((store) => new Sessions(store, SECRET));
    const servers = [
      await socketServer(here, { redis: { url: redisUrl!, key } }),
      await socketServer(there, { redis: { url: redisUrl!, key } }),
    ];
    try {
      const { id, cookieValue } = await here.open('u-two-processes');
      const socket = open(servers[1].url, cookieOf(cookieValue));
      await synced(socket);
      const end = disconnected(socket);
      await here.end(id);
      expect(await end).toBe('io server disconnect');
    } finally {
      for (const s of servers) await s.close();
      for (const s of stores) await s.close();
    }
  });
});
