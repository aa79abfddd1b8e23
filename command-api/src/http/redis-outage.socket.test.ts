// Redis away (sessions, jobs and pushes in Redis): the Socket.IO handshake is refused in French with
// the 503 it stands for, as HTTP requests are, and connects again once Redis is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { io as connectSocket } from 'socket.io-client';
import { Redis } from 'ioredis';
import { freePort } from '@evo/infra/testing/ferretdb';
import { TcpProxy } from '@evo/infra/testing/tcp-proxy';
import { registerAndLogin, startTestServer, type Member, type TestServer } from '../testing/test-server';
import { MESSAGES } from './errors';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('[skip] the Socket.IO handshake while Redis is away: REDIS_URL is not set');

describe.skipIf(!redisUrl)('the Socket.IO handshake while Redis is away', { timeout: 60_000 }, () => {
  let proxy: TcpProxy;
  let server: TestServer;
  let member: Member;
  const prefix = `evo-sock-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = new TcpProxy(await freePort(), { host: target.hostname, port: Number(target.port || 6379) });
    await proxy.open();
    server = await startTestServer({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_PREFIX: prefix,
      SESSION_SECRET: randomBytes(24).toString('hex'),
    });
    member = await registerAndLogin(server.url);
  });
  afterAll(async () => {
    await proxy?.open().catch(() => undefined);
    await server?.stop();
    await proxy?.close();
    // this run's keys only (Redis is shared)
    const redis = new Redis(redisUrl!);
    try {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  const handshake = () =>
    new Promise<{ ok: true } | { ok: false; message: string; data: unknown }>((resolve) => {
      const socket = connectSocket(server.url, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        extraHeaders: { cookie: member.client.cookie },
      });
      socket.once('connect', () => {
        socket.disconnect();
        resolve({ ok: true });
      });
      socket.once('connect_error', (err: Error & { data?: unknown }) => {
        socket.disconnect();
        resolve({ ok: false, message: err.message, data: err.data });
      });
    });

  it('answers a French 503 while Redis is away, then connects again', async () => {
    expect(await handshake()).toEqual({ ok: true });
    await proxy.close();
    try {
      expect(await handshake()).toEqual({ ok: false, message: MESSAGES.unavailable, data: { status: 503 } });
      // the HTTP side says the same
      const me = await member.client.get('/api/auth/me');
      expect(me.status).toBe(503);
      expect(me.json).toEqual({ error: MESSAGES.unavailable });
    } finally {
      await proxy.open();
    }
    const deadline = Date.now() + 15_000;
    let again = await handshake();
    while (!again.ok && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      again = await handshake();
    }
    expect(again).toEqual({ ok: true });
  });
});
