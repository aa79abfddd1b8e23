import { describe, it, expect, vi } from 'vitest';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, registrationForm, newMember } from './testing/test-server';
import { freePort, spawnProduct, waitReady, type ProductProcess } from './testing/product-process';

/**
 * The embedded product (npm start's entry point) on one DATA_DIR: a clean stop writes a snapshot of
 * the read models, the next start loads it and answers the same; after a kill -9 the next start
 * loads the older snapshot and catches up with the events written since.
 */
describe('embedded restarts from a read-model snapshot', () => {
  it('serve the same answers after a restart, and what was written before a kill -9', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'evo-snapshot-'));
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
      expect((before.withVideos as unknown[]).length).toBeGreaterThan(0);
      await product.stop();
      expect(product.output()).toContain('instantané des modèles de lecture écrit');
      expect((await stat(path.join(dataDir, 'read-models.snapshot'))).size).toBeGreaterThan(0);

      product = await start();
      expect(product.output()).toContain('modèles de lecture chargés depuis l’instantané');
      expect(await answers()).toEqual(before);

      // written after the snapshot, then the process dies without writing another one
      const m = newMember();
      const r = await new Client(base).post('/api/auth/register', await registrationForm(m));
      expect(r.status).toBe(201);
      product.child.kill('SIGKILL');
      await product.exited;

      product = await start();
      expect(product.output()).toContain('modèles de lecture chargés depuis l’instantané');
      const profile = await c.get(`/api/users/profile/${m.pseudo}`);
      expect(profile.status).toBe(200);
      const users = (await c.get('/api/admin/users?limit=100')).json as {
        items: Array<{ pseudo: string }>;
      };
      expect(users.items.map((u) => u.pseudo)).toContain(m.pseudo);
      await product.stop();
    } finally {
      if (product && product.child.exitCode === null && product.child.signalCode === null)
        product.child.kill('SIGKILL');
      await product?.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
