// What each service of the distributed stack needs, checked before it starts anything.
import { ioredis, mongodb } from './distributed-clients';
import { ConfigError, type Config } from './config/config';

export type ServiceRole = 'api' | 'projections' | 'workers';

const SERVICE_NAMES: Record<ServiceRole, string> = {
  api: "le service de l'API (start:api)",
  projections: 'le service des projections (start:projections)',
  workers: 'le service des workers (start:workers)',
};

/**
 * Variables a service cannot run without. Without them it would not fail: it would quietly fall
 * back to an embedded adapter nobody else sees (an API reading read models no one writes, a
 * projections service pushing to no browser, workers waiting on a queue no API fills).
 */
const REQUIRED: Record<ServiceRole, Array<'MONGO_URL' | 'REDIS_URL'>> = {
  api: ['MONGO_URL', 'REDIS_URL'],
  projections: ['MONGO_URL', 'REDIS_URL'],
  workers: ['REDIS_URL'],
};

/** A server named by a variable could not be reached at start. */
export class ServiceUnreachableError extends Error {
  constructor(
    readonly variable: string,
    what: string,
    url: string,
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      `Démarrage impossible : ${variable} (${redactUrl(url)}) : ${what} injoignable (${why}). Vérifiez l'adresse et que le serveur tourne, puis relancez.`,
    );
    this.name = 'ServiceUnreachableError';
  }
}

/** The URL without its password, for messages and logs (a replica set's URL lists several hosts: no new URL()). */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*):[^@/?#]*@/i, '$1:***@');
}

/** Throws a ConfigError naming the first variable `role` needs and lacks. */
export function requireDistributedConfig(config: Config, role: ServiceRole): void {
  for (const variable of REQUIRED[role]) {
    if (!config[variable]) throw new ConfigError(variable, `est obligatoire pour ${SERVICE_NAMES[role]}`);
  }
}

export async function pingRedis(url: string, timeoutMs = 5000): Promise<void> {
  const redis = new (ioredis().Redis)(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  redis.on('error', () => undefined); // reported by connect() below
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    throw new ServiceUnreachableError('REDIS_URL', 'Redis', url, e);
  } finally {
    redis.disconnect();
  }
}

export async function pingMongo(url: string, timeoutMs = 5000): Promise<void> {
  const client = new (mongodb().MongoClient)(url, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs });
  try {
    await client.connect();
    await client.db().command({ ping: 1 });
  } catch (e) {
    throw new ServiceUnreachableError('MONGO_URL', 'MongoDB', url, e);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * Before a service of the distributed stack builds anything: the variables it needs are set and
 * their servers answer, so that it either starts whole or exits with a message naming the variable.
 */
export async function checkDistributedServices(config: Config, role: ServiceRole): Promise<void> {
  requireDistributedConfig(config, role);
  const checks: Array<Promise<void>> = [];
  if (config.REDIS_URL) checks.push(pingRedis(config.REDIS_URL));
  if (config.MONGO_URL && REQUIRED[role].includes('MONGO_URL')) checks.push(pingMongo(config.MONGO_URL));
  // the first failure answers (a refused connection fails at once; MongoDB's ping waits for its timeout)
  await Promise.all(checks);
}

/**
 * A server the request needs (Redis for the sessions) did not answer: the request fails with a
 * 503 in French and nothing is changed; the connection comes back by itself (ioredis reconnects).
 */
export class ServiceUnavailableError extends Error {
  constructor(
    readonly service: string,
    cause: unknown,
  ) {
    super(`${service} unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ServiceUnavailableError';
    this.cause = cause;
  }
}

/** Node's error codes of a server that cannot be reached: refused, reset, timed out, no route or name. */
export const SERVER_AWAY_ERRNOS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
