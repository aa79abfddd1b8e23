// Bad input at start of the distributed stack's services: a missing or unreachable MONGO_URL /
// REDIS_URL stops the service with a message naming the variable, a non-zero exit, and nothing
// started (no HTTP port, nothing written to the event log).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@evo/infra/testing/ferretdb';
import { pgTestUrl, postgresAvailability, withPgDatabase } from '@evo/infra/testing/postgres';
import {
  ROOT,
  redisReachable,
  redisUrl,
  serviceEnv,
  spawnService,
  stopAllServices,
  type ServiceKind,
} from './topology-harness';
import { spawnSync } from 'node:child_process';

const redisOk = await redisReachable();
const postgres = await postgresAvailability();
if (!postgres.ok) console.warn(`[skip] the cases needing a reachable PostgreSQL: ${postgres.reason}`);
if (!redisOk) console.warn(`[skip] the cases needing a reachable Redis: no Redis at ${redisUrl()}`);

const dirs: string[] = [];
afterAll(async () => {
  await stopAllServices();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts `kind` with `env`, waits for it to exit; answers its exit, output and whether it left anything. */
async function startAndExit(kind: ServiceKind, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'evo-startup-'));
  dirs.push(dataDir);
  const [port, healthPort] = [await freePort(), await freePort()];
  const service = spawnService(kind, kind, {
    DATA_DIR: dataDir,
    SESSION_SECRET: 'a-secret-of-at-least-16-chars',
    PORT: String(port),
    HEALTH_PORT: String(healthPort),
    ...env,
  });
  const code = await Promise.race([
    service.exited,
    new Promise<'still running'>((r) => setTimeout(() => r('still running'), 45_000)),
  ]);
  const listened = await fetch(`http://127.0.0.1:${kind === 'api' ? port : healthPort}/health`).then(
    () => true,
    () => false,
  );
  await service.stop();
  return {
    code,
    output: service.output(),
    listened,
    wroteLog: existsSync(path.join(dataDir, 'events.sqlite')),
  };
}

/** a port nobody listens on */
const closedUrl = async (scheme: 'redis' | 'mongodb') => `${scheme}://127.0.0.1:${await freePort()}/`;

describe('services of the distributed stack refuse to start half-way', { timeout: 60_000 }, () => {
  it.each([
    ['api', 'MONGO_URL', { REDIS_URL: 'redis://127.0.0.1:1' }],
    ['api', 'REDIS_URL', { MONGO_URL: 'mongodb://127.0.0.1:1/' }],
    ['projections', 'MONGO_URL', { REDIS_URL: 'redis://127.0.0.1:1' }],
    ['projections', 'REDIS_URL', { MONGO_URL: 'mongodb://127.0.0.1:1/' }],
    ['workers', 'REDIS_URL', {}],
  ] as const)('%s without %s: exits 1 naming it, nothing started', async (kind, variable, env) => {
    const r = await startAndExit(kind, env);
    expect(r.code, r.output).toBe(1);
    expect(r.output).toContain(`Configuration invalide : ${variable} est obligatoire`);
    expect(r.output).not.toMatch(/\n\s+at /); // no stack
    expect(r.listened).toBe(false);
    expect(r.wroteLog).toBe(false);
  });

  it.each(['api', 'projections', 'workers'] as const)(
    '%s with an unreachable REDIS_URL: exits 1 naming REDIS_URL, nothing started',
    async (kind) => {
      const r = await startAndExit(kind, {
        REDIS_URL: await closedUrl('redis'),
        MONGO_URL: await closedUrl('mongodb'),
      });
      expect(r.code, r.output).toBe(1);
      expect(r.output).toMatch(
        /Démarrage impossible : REDIS_URL \(redis:\/\/127\.0\.0\.1:\d+\/?\) : Redis injoignable/,
      );
      expect(r.output).not.toMatch(/\n\s+at /);
      expect(r.listened).toBe(false);
      expect(r.wroteLog).toBe(false);
    },
  );

  it.skipIf(!redisOk).each(['api', 'projections'] as const)(
    '%s with an unreachable MONGO_URL: exits 1 naming MONGO_URL, nothing started',
    async (kind) => {
      const r = await startAndExit(kind, { REDIS_URL: redisUrl(), MONGO_URL: await closedUrl('mongodb') });
      expect(r.code, r.output).toBe(1);
      expect(r.output).toMatch(
        /Démarrage impossible : MONGO_URL \(mongodb:\/\/127\.0\.0\.1:\d+\/\) : MongoDB injoignable/,
      );
      expect(r.output).not.toMatch(/\n\s+at /);
      expect(r.listened).toBe(false);
      expect(r.wroteLog).toBe(false);
    },
  );
});

describe(
  'a wrong or unreachable EVENTSTORE_URL (PostgreSQL) stops the start with one French line naming it',
  { timeout: 60_000 },
  () => {
    const unreachable = async () => `postgres://postgres@127.0.0.1:${await freePort()}/evo`;
    const missingDatabase = () => withPgDatabase(pgTestUrl(), 'evo_no_such_database');

    it.skipIf(!redisOk)('workers with an unreachable EVENTSTORE_URL: exits 1 naming it, nothing started', async () => {
      const r = await startAndExit('workers', { REDIS_URL: redisUrl(), EVENTSTORE_URL: await unreachable() });
      expect(r.code, r.output).toBe(1);
      expect(r.output.trim().split('\n')).toHaveLength(1);
      expect(r.output).toMatch(
        /^Démarrage impossible : EVENTSTORE_URL \(postgres:\/\/postgres@127\.0\.0\.1:\d+\/evo\) : PostgreSQL injoignable/,
      );
      expect(r.listened).toBe(false);
      expect(r.wroteLog).toBe(false);
    });

    it.skipIf(!redisOk || !postgres.ok)(
      'workers with a database that does not exist: exits 1 naming EVENTSTORE_URL',
      async () => {
        const r = await startAndExit('workers', { REDIS_URL: redisUrl(), EVENTSTORE_URL: missingDatabase() });
        expect(r.code, r.output).toBe(1);
        expect(r.output.trim().split('\n')).toHaveLength(1);
        expect(r.output).toContain('Démarrage impossible : EVENTSTORE_URL');
        expect(r.output).toContain("la base de données n'existe pas");
        expect(r.listened).toBe(false);
      },
    );

    it('the single process (npm start) with an unreachable EVENTSTORE_URL: exits 1 naming it, no port opened', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'evo-startup-'));
      dirs.push(dataDir);
      const port = await freePort();
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
        cwd: ROOT,
        env: serviceEnv({
          DATA_DIR: dataDir,
          PORT: String(port),
          SESSION_SECRET: 'a-secret-of-at-least-16-chars',
          EVENTSTORE_URL: await unreachable(),
        }),
        encoding: 'utf8',
        timeout: 45_000,
      });
      const output = `${r.stdout}${r.stderr}`;
      expect(r.status, output).toBe(1);
      expect(output.trim().split('\n')).toHaveLength(1);
      expect(output).toMatch(
        /^Démarrage impossible : EVENTSTORE_URL \(postgres:\/\/postgres@127\.0\.0\.1:\d+\/evo\) : PostgreSQL injoignable/,
      );
      expect(existsSync(path.join(dataDir, 'events.sqlite'))).toBe(false);
    });
  },
);

describe(
  'wrong or unreachable S3 settings stop the start with one French line naming the setting',
  { timeout: 60_000 },
  () => {
    const s3 = { S3_BUCKET: 'evo-files', S3_ACCESS_KEY_ID: 'evo', S3_SECRET_ACCESS_KEY: 'evo-secret-key' };

    it.skipIf(!redisOk)('workers with an unreachable S3_ENDPOINT: exits 1 naming it, nothing started', async () => {
      const r = await startAndExit('workers', {
        REDIS_URL: redisUrl(),
        ...s3,
        S3_ENDPOINT: `http://127.0.0.1:${await freePort()}`,
      });
      expect(r.code, r.output).toBe(1);
      expect(r.output.trim().split('\n')).toHaveLength(1);
      expect(r.output).toMatch(
        /^Démarrage impossible : S3_ENDPOINT \(http:\/\/127\.0\.0\.1:\d+\) : le stockage S3 injoignable/,
      );
      expect(r.listened).toBe(false);
    });

    it('an incomplete set of S3 settings: exits 1 naming the one missing', async () => {
      const { S3_SECRET_ACCESS_KEY: _missing, ...partial } = s3;
      const r = await startAndExit('workers', {
        REDIS_URL: 'redis://127.0.0.1:1',
        ...partial,
        S3_ENDPOINT: 'http://127.0.0.1:9000',
      });
      expect(r.code, r.output).toBe(1);
      expect(r.output).toContain('Configuration invalide : S3_SECRET_ACCESS_KEY est obligatoire');
      expect(r.output).not.toMatch(/\n\s+at /);
    });
  },
);
