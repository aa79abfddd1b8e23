import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { freePort } from '../testing/ferretdb';
import { TcpProxy } from '../testing/tcp-proxy';
import { pushBusContract, type ClientSocket, type PushBusFixture } from './push-bus.contract';
import type { PushBus } from './port';
import { assertPlainJson, attachRedisAdapter, RedisEmitterPushBus, SocketIoPushBus } from './socketio-push-bus';
import { skippedSuite } from '../testing/skipped-suite';

const redisUrl = process.env.REDIS_URL;
/** unique per run, so parallel runs on one Redis never hear each other */
const runKey = `evo-test-${randomUUID()}`;

interface TestServer {
  io: Server;
  url: string;
  close(): Promise<void>;
}

/** A real Socket.IO server on an ephemeral port, optionally on the Redis adapter. */
async function startServer(redis?: { url: string; key: string }): Promise<TestServer> {
  const httpServer = createServer();
  const io = new Server(httpServer, { serveClient: false });
  const closeRedis = redis ? await attachRedisAdapter(io, redis.url, { key: redis.key }) : undefined;
  // test-only join logic: the client names its room in the handshake; the app derives it from the session
  io.on('connection', async (socket) => {
    const room: unknown = socket.handshake.auth.room;
    if (typeof room !== 'string') {
      socket.disconnect(true);
      return;
    }
    await socket.join(room);
    socket.emit('test:joined', room);
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  return {
    io,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      // io.close() also closes the HTTP server and unsubscribes the adapter, before its Redis goes
      await io.close();
      await closeRedis?.();
    },
  };
}

/** A fixture whose clients connect to `clientServer` and whose cleanup closes everything given. */
function fixture(bus: PushBus, clientServer: TestServer, servers: TestServer[]): PushBusFixture {
  const clients: ClientSocket[] = [];
  return {
    bus,
    connectClient: async (room) => {
      const client = connect(clientServer.url, {
        auth: { room },
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
      });
      clients.push(client);
      await new Promise<void>((resolve, reject) => {
        client.once('test:joined', () => resolve());
        client.once('connect_error', reject);
      });
      return client;
    },
    cleanup: async () => {
      for (const client of clients) client.disconnect();
      await bus.close();
      for (const server of servers) await server.close();
    },
  };
}

pushBusContract('SocketIoPushBus (one process)', async () => {
  const server = await startServer();
  return fixture(new SocketIoPushBus(server.io), server, [server]);
});

pushBusContract('SocketIoPushBus (one process, rooms without a socket skipped)', async () => {
  const server = await startServer();
  return fixture(new SocketIoPushBus(server.io, { onlyThisServer: true }), server, [server]);
});

if (!redisUrl) {
  skippedSuite(
    'socketio-push-bus.test.ts: REDIS_URL is not set, the Redis adapter and emitter tests are skipped',
    'PushBus through Redis (needs REDIS_URL)',
    'runs the PushBus contract across two Socket.IO servers and from a Redis emitter',
  );
} else {
  const url = redisUrl;
  let fixtureCount = 0;
  /** a key per fixture: a late message of one test can never reach the next */
  const nextKey = () => `${runKey}-${(fixtureCount += 1)}`;

  pushBusContract('SocketIoPushBus across two servers on the Redis adapter', async () => {
    const key = nextKey();
    const publishingServer = await startServer({ url, key });
    const clientServer = await startServer({ url, key });
    return fixture(new SocketIoPushBus(publishingServer.io), clientServer, [publishingServer, clientServer]);
  });

  pushBusContract('RedisEmitterPushBus to a server on the Redis adapter', async () => {
    const key = nextKey();
    const clientServer = await startServer({ url, key });
    return fixture(RedisEmitterPushBus.connect(url, { key }), clientServer, [clientServer]);
  });

  describe('Redis push', () => {
    it('a bus with another key does not reach the clients', async () => {
      const key = nextKey();
      const server = await startServer({ url, key });
      const otherBus = RedisEmitterPushBus.connect(url, { key: `${key}-other` });
      const { bus, connectClient, cleanup } = fixture(RedisEmitterPushBus.connect(url, { key }), server, [server]);
      try {
        const client = await connectClient('user:1');
        const seen: string[] = [];
        client.onAny((event: string) => seen.push(event));
        const marker = new Promise<void>((resolve) => client.once('marker', () => resolve()));

        await otherBus.publish('user:1', 'elsewhere', {});
        await otherBus.publish('user:1', 'elsewhere', {});
        // through the same Redis, published after: arrives after anything the other key could deliver
        await bus.publish('user:1', 'marker', {});
        await marker;

        expect(seen).toEqual(['marker']);
      } finally {
        await otherBus.close();
        await cleanup();
      }
    });

    it("while Redis is away, a push and closing lose the adapter's commands without an unhandled rejection", async () => {
      const target = new URL(url);
      const proxy = new TcpProxy(await freePort(), { host: target.hostname, port: Number(target.port || 6379) });
      await proxy.open();
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        const server = await startServer({ url: `redis://127.0.0.1:${proxy.port}`, key: nextKey() });
        await proxy.close();
        // the adapter publishes this and drops the promise; then io.close() unsubscribes the same way,
        // and closing the connections fails what Redis never answered
        server.io.to('user:1').emit('lost', {});
        await server.close();
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
        await proxy.close();
      }
    });

    it('publish after close is refused', async () => {
      const bus = RedisEmitterPushBus.connect(url, { key: nextKey() });
      await bus.close();
      await expect(bus.publish('user:1', 'x', {})).rejects.toThrow(/closed/);
    });
  });
}

describe('assertPlainJson', () => {
  it('accepts plain JSON, an object met twice included, and names the first value that is not', () => {
    const shared = { coins: 3 };
    expect(() => assertPlainJson({ a: shared, b: [shared, 'x', 1, true, null], c: { d: [] } })).not.toThrow();
    expect(() => assertPlainJson({ ok: 1, list: [{ deep: { position: 5n } }] })).toThrow(
      /payload\.list\[0\]\.deep\.position is a bigint/,
    );
    const cycle: Record<string, unknown> = { n: 1 };
    cycle.self = { back: cycle };
    expect(() => assertPlainJson(cycle)).toThrow(/payload\.self\.back is circular/);
    expect(() => assertPlainJson([Symbol('s')])).toThrow(/payload\[0\] is a symbol/);
  });
});
