import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import { dumpReadModels } from '@evo/projections/testing/read-model-dump';
import { reconcileLedger, type ErasureStep } from '@evo/workers';
import { Client, embeddedEnv, registerAndLogin, startTestServer } from '../testing/test-server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** The real entry point in its own process, pausing 4 s after each step of an erasure. */
async function spawnServer(dataDir: string, port: number) {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'command-api/src/main.ts'], {
    cwd: ROOT,
    env: embeddedEnv({
      DATA_DIR: dataDir,
      PORT: String(port),
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      ERASURE_STEP_PAUSE_MS: '4000',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${url}/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, output: () => output };
}

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
        const { child, url, output } = await spawnServer(dataDir, await freePort());
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
            await server.deps.jobs.drain(30_000);
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
