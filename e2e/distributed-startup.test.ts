// Bad input at start of the distributed stack's services: a missing or unreachable MONGO_URL /
// REDIS_URL stops the service with a message naming the variable, a non-zero exit, and nothing
// started (no HTTP port, nothing written to the event log).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@evo/infra/testing/ferretdb';
import { redisReachable, redisUrl, spawnService, stopAllServices, type ServiceKind } from './topology-harness';

const redisOk = await redisReachable();
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
