import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import { dumpReadModels } from '@evo/projections/testing/read-model-dump';
import type { ErasureStep } from '@evo/workers';
import { reconcileLedger } from '../ledger/reconcile';
import { Client, freePort, registerAndLogin, spawnEmbeddedServer, startTestServer } from '../testing/test-server';

async function until(what: string, check: () => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('kill -9 during an account erasure', () => {
  for (const step of ['wallet', 'files', 'key'] as ErasureStep[]) {
    it(`the next start finishes it (killed after the step '${step}'): files, key, read models, ledger`, async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'evo-erase-crash-'));
      try {
        const { child, url, output } = await spawnEmbeddedServer(dataDir, await freePort(), {
          ERASURE_STEP_PAUSE_MS: '4000',
        });
        const gone = await registerAndLogin(url, { bio: `Bio à effacer ${step}` });
        const other = await registerAndLogin(url);
        expect((await gone.client.post('/api/coins/add', { email: gone.member.email, amount: 40 })).status).toBe(200);
        const video = (
          (await gone.client.get(`/api/users/profile/${gone.member.pseudo}`)).json.videos as Array<{
            id: number;
            file_path: string;
          }>
        )[0];
        const videoId = video.id;
        const picture = (await gone.client.get('/api/auth/me')).json.profile_picture as string;
        const theirFiles = {
          videos: [path.basename(video.file_path)],
          posters: [`${videoId}.jpg`],
          profile_pics: [picture],
        };
        expect((await other.client.post(`/api/videos/${videoId}/like`)).status).toBeLessThan(300);
        const admin = new Client(url);
        await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD });
        const userId = (
          (await admin.get(`/api/admin/users?q=${encodeURIComponent(gone.member.email)}`)).json.items as Array<{
            id: string;
          }>
        )[0].id;

        expect((await gone.client.request('DELETE', '/api/users/me', { password: gone.member.password })).status).toBe(
          200,
        );
        await until(`step ${step}`, () => output().includes(`étape ${step} faite`));
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));

        // the next start (in this process) finishes the erasure
        const server = await startTestServer({}, dataDir);
        try {
          for (let i = 0; i < 100; i++) {
            await server.settle(30_000);
            if ((await server.deps.events.readStream(`user-${userId}`)).some((e) => e.type === 'MemberErased')) break;
            await new Promise((r) => setTimeout(r, 100));
          }
          const stream = await server.deps.events.readStream(`user-${userId}`);
          expect(stream.filter((e) => e.type === 'MemberErased')).toHaveLength(1);
          expect(await server.deps.keys.find(userId)).toBe('destroyed');
          for (const folder of ['videos', 'posters', 'profile_pics'] as const) {
            const names: string[] = [];
            for await (const f of server.deps.uploads.files.list(folder)) names.push(f.name);
            for (const name of theirFiles[folder]) expect(names, folder).not.toContain(name);
          }
          const last = (await server.deps.events.lastPosition())!;
          expect(await server.deps.progress.waitFor(last, 10_000)).toBe(true);
          const documents = JSON.stringify(await dumpReadModels(server.deps.read));
          for (const needle of [gone.member.email, gone.member.pseudo, `Bio à effacer ${step}`])
            expect(documents, needle).not.toContain(needle);
          const wallet = (await server.deps.events.readStream(`wallet-${userId}`)).filter(
            (e) => e.type === 'WalletClosed',
          );
          expect(wallet).toHaveLength(1);
          const report = await reconcileLedger(server.deps.events);
          expect(report.first_violation).toBeNull();
          expect(report.totals.platform_forfeits).toBe(40);
        } finally {
          await server.stop();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
