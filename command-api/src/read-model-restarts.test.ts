import { describe, it, expect, vi } from 'vitest';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SqliteReadStore } from '@evo/infra';
import { openEmbeddedLog } from '@evo/infra/testing/embedded-log';
import { allProjectors, rebuildReadModels } from '@evo/projections';
import { dumpReadModels } from '@evo/projections/testing/read-model-dump';
import { Client, registrationForm, newMember } from './testing/test-server';
import { freePort, spawnProduct, waitReady, type ProductProcess } from './testing/product-process';
import { DEMO_MEMBERS } from './seed/demo-data';

/** The read models in DATA_DIR, document by document, next to a rebuild of the log from scratch. */
async function readModelsAndRebuild(dataDir: string) {
  const events = openEmbeddedLog(dataDir);
  const files = await readdir(dataDir);
  const current = files.includes('read-models.current')
    ? (await import('node:fs')).readFileSync(path.join(dataDir, 'read-models.current'), 'utf8').trim()
    : 'read-models.sqlite';
  const served = new SqliteReadStore(path.join(dataDir, current));
  const fresh = SqliteReadStore.temporary();
  await rebuildReadModels({ events, read: fresh, projectors: allProjectors });
  const out = { served: await dumpReadModels(served), rebuilt: await dumpReadModels(fresh) };
  await Promise.all([served.close(), fresh.close(), events.close()]);
  return out;
}

/** After a test, passed or failed: its product killed if it still runs, and its DATA_DIR removed. */
async function discard(product: ProductProcess | undefined, dataDir: string) {
  if (product && product.child.exitCode === null && product.child.signalCode === null) product.child.kill('SIGKILL');
  await product?.exited;
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * The embedded product (npm start's entry point) on one DATA_DIR: the read models live in
 * read-models.sqlite, committed with their checkpoint batch by batch, so a restart serves them
 * at once, after a clean stop or a kill -9 in the middle of writes, and they equal a rebuild.
 */
describe('embedded restarts keep the read models in their SQLite file', () => {
  it('serve the same answers after a restart, and after a kill -9 during writes equal a fresh rebuild', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'evo-restarts-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const start = async (extra: Record<string, string> = {}) => {
      const p = spawnProduct({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ...extra });
      await waitReady(base, p);
      return p;
    };
    // one administrator session for the whole test (sessions survive restarts): logging in again
    // would change the administrator's last login shown in the answers compared
    const c = new Client(base);
    const login = () => c.post('/api/auth/login', { email: 'admin@evo.local', password: 'evo-admin-2026' });
    const answers = async () => {
      const out: Record<string, unknown> = {};
      const withVideos = (await c.get('/api/users/with-videos?limit=50')).json as unknown as Array<{ pseudo: string }>;
      out.withVideos = withVideos;
      for (const u of withVideos.slice(0, 3)) out[u.pseudo] = (await c.get(`/api/users/profile/${u.pseudo}`)).json;
      for (const url of ['/api/admin/stats', '/api/admin/users?limit=100', '/api/admin/audit?limit=100'])
        out[url] = (await c.get(url)).json;
      return out;
    };
    let product: ProductProcess | undefined;
    try {
      // first start: demo members, videos and gifts seeded on the empty log, read models built from it
      product = await start({ DEMO_DATA: 'true' });
      expect((await login()).status).toBe(200);
      // the demo videos are processed in the background: compare once they all are
      await vi.waitFor(async () => expect(JSON.stringify(await answers())).not.toContain('en_traitement'), {
        timeout: 120_000,
        interval: 1000,
      });
      const before = await answers();
      // the administrator follows nobody: every demo member is suggested with their videos
      const suggested = (before.withVideos as Array<{ pseudo: string }>).map((u) => u.pseudo);
      expect(suggested.sort()).toEqual(DEMO_MEMBERS.map((m) => m.pseudo).sort());
      await product.stop();

      product = await start();
      expect(product.output()).not.toContain('construction depuis le journal');
      expect(await answers()).toEqual(before);

      // a burst of registrations, and the process dies in the middle of it: once the first is
      // answered (so this run appended after its record: a fixed delay killed it before any, on a
      // loaded CI machine), the others still on their way
      const members = Array.from({ length: 12 }, () => newMember());
      const sent = members.map(async (m) => {
        const res = await new Client(base).post('/api/auth/register', await registrationForm(m));
        if (res.status !== 201) throw new Error(`registration answered ${res.status}`);
      });
      const burst = Promise.allSettled(sent);
      await Promise.any(sent);
      product.child.kill('SIGKILL');
      await product.exited;
      await burst;

      product = await start();
      expect(product.output()).not.toContain('construction depuis le journal');
      // the log: only the events on the pages the killed run's -wal holds and after its last record,
      // not the demo's, written and checkpointed before this run (the -wal holds the burst's pages)
      const verified = /\{[^\n]*"msg":"event log verified[^\n]*/.exec(product.output())?.[0];
      expect(verified).toContain('by the run killed');
      const { events: checked, last } = JSON.parse(verified!) as { events: number; last: string };
      expect(checked).toBeGreaterThan(0);
      expect(checked).toBeLessThan(Number(last));
      const m = members[0];
      const users = (await c.get('/api/admin/users?limit=100')).json as { items: Array<{ pseudo: string }> };
      const registered = users.items.map((u) => u.pseudo);
      expect(registered.length).toBeGreaterThanOrEqual(
        (before['/api/admin/users?limit=100'] as { items: unknown[] }).items.length,
      );
      if (registered.includes(m.pseudo)) expect((await c.get(`/api/users/profile/${m.pseudo}`)).status).toBe(200);
      await product.stop();
      const { served, rebuilt } = await readModelsAndRebuild(dataDir);
      expect(served).toEqual(rebuilt);
    } finally {
      await discard(product, dataDir);
    }
  }, 300_000);

  it('a DATA_DIR of the in-memory store of earlier versions: read models built once from the log, old files removed', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'evo-upgrade-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let product: ProductProcess | undefined;
    try {
      product = spawnProduct({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' });
      await waitReady(base, product);
      const m = newMember();
      expect((await new Client(base).post('/api/auth/register', await registrationForm(m))).status).toBe(201);
      await product.stop();
      // what an earlier version left: its snapshot and gift checkpoint, and no SQLite read models
      for (const f of await readdir(dataDir)) if (/^read-models/.test(f)) await rm(path.join(dataDir, f));
      await writeFile(path.join(dataDir, 'read-models.snapshot'), 'EVOSNAP4 …');
      await writeFile(path.join(dataDir, 'gift-credits.checkpoint'), 'old');

      product = spawnProduct({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' });
      await waitReady(base, product);
      expect(product.output()).toContain('modèles de lecture vides : construction depuis le journal');
      expect(product.output()).toContain('fichier de l’ancien stockage en mémoire supprimé');
      const admin = new Client(base);
      await admin.post('/api/auth/login', { email: 'admin@evo.local', password: 'evo-admin-2026' });
      expect((await admin.get(`/api/users/profile/${m.pseudo}`)).status).toBe(200);
      const files = await readdir(dataDir);
      expect(files).not.toContain('read-models.snapshot');
      expect(files).not.toContain('gift-credits.checkpoint');
      expect(files).toContain('read-models.sqlite');
      await product.stop();
    } finally {
      await discard(product, dataDir);
    }
  }, 240_000);
});
