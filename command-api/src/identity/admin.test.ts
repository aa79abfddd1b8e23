import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import { openEmbeddedLog } from '@evo/infra/testing/embedded-log';
import { Client, embeddedEnv, registerAndLogin, startTestServer } from '../testing/test-server';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function countRegistrations(dataDir: string, email: string) {
  const store = openEmbeddedLog(dataDir);
  let n = 0;
  for await (const batch of store.readAll()) {
    for (const e of batch) if (e.type === 'UserRegistered' && (e.data as { email: string }).email === email) n++;
  }
  await store.close();
  return n;
}

describe('administrators', () => {
  it('creates the ADMIN_EMAIL administrator once across restarts', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-admin-'));
    try {
      for (let i = 0; i < 3; i++) {
        const s = await startTestServer({}, dir);
        const r = await new Client(s.url).post('/api/auth/login', {
          email: DEMO_ADMIN_EMAIL,
          password: DEMO_ADMIN_PASSWORD,
        });
        expect(r.json).toMatchObject({ email: DEMO_ADMIN_EMAIL, role: 'admin', is_admin: true });
        await s.stop();
      }
      expect(await countRegistrations(dir, DEMO_ADMIN_EMAIL)).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('grants the role with npm run admin:grant (an event)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-grant-'));
    try {
      const s = await startTestServer({}, dir);
      const { member } = await registerAndLogin(s.url);
      await s.stop();
      const env = embeddedEnv({ DATA_DIR: dir });
      const first = await run(
        process.execPath,
        ['--import', 'tsx', 'command-api/src/cli/admin-grant.ts', member.email],
        { cwd: ROOT, env },
      );
      expect(first.stdout).toContain('est maintenant administrateur');
      const again = await run(
        process.execPath,
        ['--import', 'tsx', 'command-api/src/cli/admin-grant.ts', member.email],
        { cwd: ROOT, env },
      );
      expect(again.stdout).toContain('était déjà administrateur');
      const unknown = await run(
        process.execPath,
        ['--import', 'tsx', 'command-api/src/cli/admin-grant.ts', 'personne@test.fr'],
        { cwd: ROOT, env },
      ).catch((e: { code: number; stderr: string }) => e);
      expect((unknown as { code: number }).code).toBe(1);
      expect((unknown as { stderr: string }).stderr).toContain('Utilisateur introuvable.');
      const s2 = await startTestServer({}, dir);
      const login = await new Client(s2.url).post('/api/auth/login', {
        email: member.email,
        password: member.password,
      });
      expect(login.json).toMatchObject({ role: 'admin', is_admin: true });
      await s2.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
