import type { Emitter } from '@socket.io/redis-emitter';
import type { Redis } from 'ioredis';
import { ioredis, redisAdapter, redisEmitter } from '../distributed-clients';
import type { Server } from 'socket.io';
import { childLogger } from '../logger';
import type { PushBus } from './port';

/*
 * Payloads are plain JSON: objects, arrays, strings, finite numbers, booleans, null. They travel as JSON
 * to browsers and as MessagePack through Redis, and only plain JSON comes out of both the same. In
 * particular event positions (bigint) must be converted to strings before publishing; a bigint would
 * also make the receiving API server throw while encoding the packet, far from the publisher.
 */

const log = childLogger('push');

/** Whether `value` is plain JSON; the check of every publish, so it builds nothing on its way. */
function isPlainJson(value: unknown, path: object[]): boolean {
  switch (typeof value) {
    case 'bigint':
    case 'function':
    case 'symbol':
      return false;
    case 'object': {
      if (value === null) return true;
      if (path.includes(value)) return false;
      path.push(value);
      if (Array.isArray(value)) {
        for (const item of value) if (!isPlainJson(item, path)) return false;
      } else {
        for (const key of Object.keys(value))
          if (!isPlainJson((value as Record<string, unknown>)[key], path)) return false;
      }
      path.pop();
      return true;
    }
    default:
      return true;
  }
}

/** Throws a TypeError naming the first value that is not plain JSON (bigint, function, symbol, cycle). */
export function assertPlainJson(value: unknown): void {
  if (isPlainJson(value, [])) return;
  // not plain JSON: walk it again, naming the paths, to say where
  const inPath = new Set<object>();
  const visit = (current: unknown, path: string): void => {
    switch (typeof current) {
      case 'bigint':
        throw new TypeError(`${path} is a bigint: publish it as a string (push payloads are plain JSON)`);
      case 'function':
      case 'symbol':
        throw new TypeError(`${path} is a ${typeof current}: push payloads are plain JSON`);
      case 'object': {
        if (current === null) return;
        if (inPath.has(current)) throw new TypeError(`${path} is circular: push payloads are plain JSON`);
        inPath.add(current);
        if (Array.isArray(current)) current.forEach((item, i) => visit(item, `${path}[${i}]`));
        else for (const [key, item] of Object.entries(current)) visit(item, `${path}.${key}`);
        inPath.delete(current);
        return;
      }
      default:
        return;
    }
  };
  visit(value, 'payload');
}

export interface SocketIoPushOptions {
  /**
   * true when `io` shares no rooms with other servers (no Redis adapter: the embedded process): a
   * room with no socket here then has no member anywhere, and a message to it is dropped before
   * it is encoded (a gift's receiver, a video's author are often offline)
   */
  onlyThisServer?: boolean;
}

/**
 * Publishes through a Socket.IO server of this process. With attachRedisAdapter on that server the
 * message also reaches the clients of every other API server sharing the Redis.
 */
export class SocketIoPushBus implements PushBus {
  constructor(
    private readonly io: Server,
    private readonly options: SocketIoPushOptions = {},
  ) {}

  async publish(room: string, event: string, payload: unknown): Promise<void> {
    assertPlainJson(payload);
    if (this.options.onlyThisServer && !this.io.sockets.adapter.rooms.has(room)) return;
    this.io.to(room).emit(event, payload);
  }

  async joinRoom(members: string, room: string): Promise<void> {
    // with attachRedisAdapter, the other API servers apply it to their clients too
    this.io.in(members).socketsJoin(room);
  }

  async leaveRoom(members: string, room: string): Promise<void> {
    this.io.in(members).socketsLeave(room);
  }

  async close(): Promise<void> {
    // the Socket.IO server belongs to the HTTP layer that created it, which closes it
  }
}

async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status !== 'ready') {
    // Redis away: QUIT would queue behind commands that cannot be answered and hold the shutdown
    // until ioredis gives them up; dropping the connection fails them at once
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    // QUIT cannot be sent on a connection that never came up; dropping it is all that is left to do
    connection.disconnect();
  }
}

/**
 * The Socket.IO adapter sends these commands and drops their promises. While Redis is away (or as the
 * connection closes with them still queued) they fail, and an unhandled rejection would end the
 * process: the failure is logged here instead. The promise is returned as it is, so a caller that
 * does wait still sees it fail.
 */
function reportDroppedReplies(client: Redis, commands: readonly string[]): void {
  const methods = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of commands) {
    const send = methods[name].bind(client);
    methods[name] = (...args: unknown[]) => {
      const reply = send(...args);
      reply.catch((err: unknown) =>
        log.warn(
          { err, command: name },
          'socket.io adapter: a Redis command failed, its push or subscription change is lost',
        ),
      );
      return reply;
    };
  }
}

export interface RedisPushOptions {
  /**
   * Redis channel prefix shared by the adapters and emitters that must reach each other, default
   * 'socket.io'. A different key isolates a deployment (or a test run) on a shared Redis.
   */
  key?: string;
}

/**
 * Makes `io` broadcast through Redis, so that a room emit on any API server reaches the room's clients
 * on all of them. Resolves once this server is subscribed, so no message sent afterwards is missed.
 * The returned function closes the Redis connections: call it after `io.close()`, which unsubscribes
 * the adapter (closing the connections first would leave that unsubscribe failing).
 */
export async function attachRedisAdapter(
  io: Server,
  redisUrl: string,
  options: RedisPushOptions = {},
): Promise<() => Promise<void>> {
  const pubClient = new (ioredis().Redis)(redisUrl);
  const subClient = pubClient.duplicate();
  pubClient.on('error', (err) => log.error({ err }, 'socket.io adapter publisher connection error'));
  subClient.on('error', (err) => log.error({ err }, 'socket.io adapter subscriber connection error'));
  reportDroppedReplies(pubClient, ['publish', 'spublish']);
  reportDroppedReplies(subClient, ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe']);
  const closeClients = () =>
    Promise.all([closeConnection(pubClient), closeConnection(subClient)]).then(() => undefined);

  try {
    // fail here, before touching the server, when Redis cannot be reached; and let both connections
    // be ready first: a subscription made while the subscriber's ready check is pending makes ioredis
    // send that check (INFO) in subscriber mode, which Redis refuses
    await Promise.all([pubClient.ping(), subClient.ping()]);
    io.adapter(
      redisAdapter().createAdapter(pubClient, subClient, options.key === undefined ? {} : { key: options.key }),
    );
    // the adapter subscribes without waiting for the reply; Redis answers a connection's commands in
    // order, so once this PING is answered the subscriptions are in place
    await subClient.ping();
  } catch (error) {
    await closeClients();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return () => {
    closing ??= closeClients();
    return closing;
  };
}

/**
 * Publishes to Socket.IO clients from a process that has no Socket.IO server (projections, workers):
 * the message goes through Redis to the API servers that use attachRedisAdapter with the same key.
 */
export class RedisEmitterPushBus implements PushBus {
  private readonly emitter: Emitter;
  private readonly ownsClient: boolean;
  /** the PUBLISH issued by the emit in progress, see the constructor */
  private lastPublish: Promise<number> | undefined;
  private closed = false;

  /** `redis` stays the caller's unless `ownsClient`, in which case close() quits it */
  constructor(
    private readonly redis: Redis,
    options: RedisPushOptions & { ownsClient?: boolean } = {},
  ) {
    this.ownsClient = options.ownsClient ?? false;
    // the emitter fires its PUBLISH and drops the promise; handing it this relay keeps the promise,
    // so that publish() waits for Redis and reports its errors instead of leaving them unhandled
    const relay = {
      publish: (channel: string, message: string | Buffer): Promise<number> => {
        const sent = this.redis.publish(channel, message);
        this.lastPublish = sent;
        return sent;
      },
    };
    // the emitter takes an explicit `key: undefined` literally, hence no key at all when none is given
    this.emitter = new (redisEmitter().Emitter)(relay, options.key === undefined ? {} : { key: options.key });
  }

  /** A bus with a Redis connection of its own, closed by close(). */
  static connect(redisUrl: string, options: RedisPushOptions = {}): RedisEmitterPushBus {
    const redis = new (ioredis().Redis)(redisUrl);
    redis.on('error', (err) => log.error({ err }, 'socket.io emitter connection error'));
    return new RedisEmitterPushBus(redis, { ...options, ownsClient: true });
  }

  async publish(room: string, event: string, payload: unknown): Promise<void> {
    if (this.closed) throw new Error('RedisEmitterPushBus is closed');
    assertPlainJson(payload);
    this.lastPublish = undefined;
    this.emitter.to(room).emit(event, payload);
    await this.sent();
  }

  async joinRoom(members: string, room: string): Promise<void> {
    if (this.closed) throw new Error('RedisEmitterPushBus is closed');
    this.lastPublish = undefined;
    this.emitter.in(members).socketsJoin(room);
    await this.sent();
  }

  async leaveRoom(members: string, room: string): Promise<void> {
    if (this.closed) throw new Error('RedisEmitterPushBus is closed');
    this.lastPublish = undefined;
    this.emitter.in(members).socketsLeave(room);
    await this.sent();
  }

  /** waits for the PUBLISH the emitter call just made */
  private async sent(): Promise<void> {
    const sent = this.lastPublish;
    this.lastPublish = undefined;
    await sent;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsClient) await closeConnection(this.redis);
  }
}
