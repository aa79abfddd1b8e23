import { describe, it, expect } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedLog } from '@evo/infra/testing/embedded-log';
import { Client, embeddedEnv, newMember, registrationForm } from '../testing/test-server';
import { ROOT, freePort, waitReady } from '../testing/product-process';

function startProduct(dataDir: string, port: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    env: embeddedEnv({ DATA_DIR: dataDir, PORT: String(port), DEMO_DATA: 'false' }),
    stdio: 'ignore',
  });
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));

describe('the product survives kill -9', () => {
  it('keeps every acknowledged registration, exactly once', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'evo-kill-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let child = startProduct(dataDir, port);
    try {
      await waitReady(base);
      const acknowledged: Array<ReturnType<typeof newMember>> = [];
      let stop = false;
      const worker = async () => {
        while (!stop) {
          const m = newMember();
          try {
            const r = await new Client(base).post('/api/auth/register', await registrationForm(m));
            if (r.status === 201) acknowledged.push(m);
          } catch {
            return; // the process is gone
          }
        }
      };
      const workers = Array.from({ length: 4 }, worker);
      // killed once a few registrations were acknowledged (however slow the machine), others in flight
      const deadline = Date.now() + 60_000;
      while (acknowledged.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      await exited(child);
      expect(acknowledged.length).toBeGreaterThan(3);

      child = startProduct(dataDir, port);
      await waitReady(base);
      for (const m of acknowledged) {
        const c = new Client(base);
        const login = await c.post('/api/auth/login', { email: m.email, password: m.password });
        expect(login.status, m.email).toBe(200);
        const profile = await c.get(`/api/users/profile/${m.pseudo}`);
        expect((profile.json.videos as unknown[]).length).toBe(1);
      }
      child.kill('SIGTERM');
      await exited(child);

      const store = openEmbeddedLog(dataDir);
      const registered = new Map<string, number>();
      for await (const batch of store.readAll()) {
        for (const e of batch) {
          if (e.type === 'UserRegistered') {
            const email = (e.data as { email: string }).email;
            registered.set(email, (registered.get(email) ?? 0) + 1);
          }
        }
      }
      await store.close();
      for (const m of acknowledged) expect(registered.get(m.email)).toBe(1);
      expect([...registered.values()].every((n) => n === 1)).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
