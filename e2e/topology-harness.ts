// Processes of the distributed stack started the way an operator starts them (the commands behind
// `npm run start:api` / `start:projections` / `start:workers`), each a separate OS process, plus what
// the topology tests need around them: a Redis reachable check, key clean-up, and a TCP proxy of
// the test's own to cut Redis away from one process.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { testPasswordHashing } from '@evo/command-api/testing/test-server';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type ServiceKind = 'api' | 'projections' | 'workers';

/** The same `node --import tsx …` commands as the package.json scripts (tsx's CLI would put a second process between). */
const ENTRY: Record<ServiceKind, string[]> = {
  api: ['--import', 'tsx', 'server/src/main.ts', '--role=api'],
  projections: ['--import', 'tsx', 'server/src/projections-main.ts'],
  workers: ['--import', 'tsx', 'server/src/workers-main.ts'],
};

export interface ServiceProcess {
  kind: ServiceKind;
  name: string;
  child: ChildProcess;
  /** stdout and stderr so far (the last 400 kB) */
  output(): string;
  /** resolves once the process ended, with its code or signal */
  exited: Promise<number | NodeJS.Signals | null>;
  alive(): boolean;
  /** resolves once a line of its output matches */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** The environment of a spawned service: this process's, without what a test run may have set. */
export function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const {
    REDIS_URL: _r,
    MONGO_URL: _m,
    EVENTSTORE_URL: _e,
    SESSION_SECRET: _s,
    VITEST: _v,
    VITEST_POOL_ID: _p,
    VITEST_WORKER_ID: _w,
    NODE_ENV: _n,
    ...rest
  } = process.env;
  return { ...rest, DEMO_DATA: 'false', LOG_LEVEL: 'warn', ...testPasswordHashing(extra), ...extra };
}

const started = new Set<ServiceProcess>();
// the test process ending for any reason (a vitest timeout, a crash) takes its services with it
process.once('exit', () => {
  for (const s of started) if (s.alive()) s.child.kill('SIGKILL');
});

export function spawnService(kind: ServiceKind, name: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ENTRY[kind], {
    cwd: ROOT,
    env: serviceEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-400_000);
    for (const l of listeners) l();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const service: ServiceProcess = {
    kind,
    name,
    child,
    output: () => out,
    exited,
    alive,
    // five Node services start (and compile with tsx) at once: on two busy cores that can take a minute
    waitForLine(pattern, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = out.split('\n').find((l) => pattern.test(l));
          if (line !== undefined) {
            done();
            resolve(line);
          } else if (!alive()) {
            done();
            reject(new Error(`${name} exited before printing ${pattern}:\n${out.slice(-4000)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name} did not print ${pattern} within ${timeoutMs} ms:\n${out.slice(-4000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then(check);
        check();
      });
    },
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      await exited;
      started.delete(service);
    },
    async stop() {
      if (alive()) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      started.delete(service);
    },
  };
  started.add(service);
  return service;
}

/** Stops every service still running (SIGKILL after 10 s): for afterAll, also after a failure. */
export async function stopAllServices(): Promise<void> {
  await Promise.all([...started].map((s) => s.stop()));
}

/** Waits for `url` to answer `status` (the process dying fails at once, with its output). */
export async function waitForStatus(
  url: string,
  status: number,
  service?: ServiceProcess,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    if (service && !service.alive()) throw new Error(`${service.name} exited:\n${service.output().slice(-4000)}`);
    try {
      const r = await fetch(url);
      last = `${r.status} ${await r.text()}`;
      if (r.status === status) return;
    } catch (e) {
      last = (e as Error).message;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${url} did not answer ${status} within ${timeoutMs} ms (last: ${last})${service ? `\n${service.output().slice(-4000)}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resolves once `predicate` holds (polled), fails after `timeoutMs` naming `what`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const redisUrl = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers at REDIS_URL (default the machine's, 127.0.0.1:6379). */
export async function redisReachable(url = redisUrl()): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key under `prefix:` (never anything else: Redis is shared). */
export async function deleteRedisKeys(prefix: string, url = redisUrl()): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

export { TcpProxy } from '@evo/infra/testing/tcp-proxy';
