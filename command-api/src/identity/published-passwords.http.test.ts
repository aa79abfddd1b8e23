import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD, DEMO_MEMBER_PASSWORD } from '@evo/infra';
import { Client, startTestServer, type TestServer } from '../testing/test-server';
import { DEMO_MEMBERS } from '../seed/demo-data';

/**
 * Issue 29 item 1: once EVO is opened to the network, no account logs in with a password
 * README.md publishes, and a given ADMIN_PASSWORD is the administrator's.
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function dataDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-published-'));
  dirs.push(dir);
  return dir;
}

const NEW_ADMIN_PASSWORD = 'Str0ng-Secret-99';
const NEW_DEMO_PASSWORD = 'Autre-Secret-42';
const DEMO_EMAILS = DEMO_MEMBERS.map((m) => m.email);

async function loginStatus(server: TestServer, email: string, password: string) {
  return (await new Client(server.url).post('/api/auth/login', { email, password })).status;
}

/** The PasswordChanged events of the log, with their actor. */
async function passwordChanges(server: TestServer) {
  const out: Array<{ userId: string; actor: string | undefined }> = [];
  for await (const batch of server.deps.events.readAll())
    for (const e of batch)
      if (e.type === 'PasswordChanged')
        out.push({ userId: (e.data as { userId: string }).userId, actor: e.metadata.userId });
  return out;
}

describe('passwords published in README.md, off loopback', () => {
  it('refuses to open the demo accounts to the network, then applies ADMIN_PASSWORD and DEMO_PASSWORD (actor "system")', async () => {
    const dir = await dataDir();
    // `npm start` once on this machine: the demo administrator and members, with their public passwords
    const first = await startTestServer({ DEMO_DATA: 'true' }, dir);
    expect(await loginStatus(first, DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD)).toBe(200);
    await first.stop();

    // then opened to the network with an administrator password of its own: refused, naming the members
    const network = { HOST: '0.0.0.0', ADMIN_PASSWORD: NEW_ADMIN_PASSWORD, DEMO_DATA: 'true' };
    const refused = await startTestServer(network, dir).then(
      async (s) => {
        await s.stop();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    const message = (refused as Error).message;
    expect(message).toContain('Configuration invalide : DEMO_PASSWORD est obligatoire quand HOST (0.0.0.0)');
    for (const email of DEMO_EMAILS) expect(message).toContain(email);
    expect(message).not.toContain(DEMO_ADMIN_EMAIL);

    // with DEMO_PASSWORD: both applied, the published passwords refused
    const opened = await startTestServer({ ...network, DEMO_PASSWORD: NEW_DEMO_PASSWORD }, dir);
    try {
      expect(await loginStatus(opened, DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD)).toBe(401);
      expect(await loginStatus(opened, DEMO_ADMIN_EMAIL, NEW_ADMIN_PASSWORD)).toBe(200);
      for (const email of DEMO_EMAILS) {
        expect(await loginStatus(opened, email, DEMO_MEMBER_PASSWORD)).toBe(401);
        expect(await loginStatus(opened, email, NEW_DEMO_PASSWORD)).toBe(200);
      }
      const changes = await passwordChanges(opened);
      expect(changes).toHaveLength(4);
      expect(new Set(changes.map((c) => c.actor))).toEqual(new Set(['system']));
      // the administrators' audit log names the change and its actor
      const admin = new Client(opened.url);
      expect(
        (await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: NEW_ADMIN_PASSWORD })).status,
      ).toBe(200);
      const audit = (await admin.get('/api/admin/audit?limit=50')).json as {
        items: Array<{ action: string; target: string; admin_pseudo: string }>;
      };
      const lines = audit.items.filter((i) => i.action === 'Mot de passe remplacé');
      expect(lines.map((l) => l.target).sort()).toEqual([DEMO_ADMIN_EMAIL, ...DEMO_EMAILS].sort());
      expect(new Set(lines.map((l) => l.admin_pseudo))).toEqual(new Set(['system']));
    } finally {
      await opened.stop();
    }

    // the same settings again change nothing
    const again = await startTestServer({ ...network, DEMO_PASSWORD: NEW_DEMO_PASSWORD }, dir);
    try {
      expect(await passwordChanges(again)).toHaveLength(4);
      expect(await loginStatus(again, DEMO_ADMIN_EMAIL, NEW_ADMIN_PASSWORD)).toBe(200);
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('refuses a fresh install off loopback that would seed the demo members with their public password', async () => {
    const refused = await startTestServer(
      { HOST: '0.0.0.0', ADMIN_PASSWORD: NEW_ADMIN_PASSWORD, DEMO_DATA: 'true' },
      await dataDir(),
    ).then(
      async (s) => {
        await s.stop();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect((refused as Error)?.message).toContain('ou démarrez sans les créer avec DEMO_DATA=false');
    // seeded with DEMO_PASSWORD instead
    const seeded = await startTestServer(
      { HOST: '0.0.0.0', ADMIN_PASSWORD: NEW_ADMIN_PASSWORD, DEMO_DATA: 'true', DEMO_PASSWORD: NEW_DEMO_PASSWORD },
      await dataDir(),
    );
    try {
      expect(await loginStatus(seeded, DEMO_EMAILS[0], DEMO_MEMBER_PASSWORD)).toBe(401);
      expect(await loginStatus(seeded, DEMO_EMAILS[0], NEW_DEMO_PASSWORD)).toBe(200);
      // seeded with it: nothing to change
      expect(await passwordChanges(seeded)).toHaveLength(0);
    } finally {
      await seeded.stop();
    }
  }, 120_000);

  it('applies a given ADMIN_PASSWORD that differs from the administrator’s, on this machine too', async () => {
    const dir = await dataDir();
    const first = await startTestServer({}, dir);
    await first.stop();
    const second = await startTestServer({ ADMIN_PASSWORD: NEW_ADMIN_PASSWORD }, dir);
    try {
      expect(await loginStatus(second, DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD)).toBe(401);
      expect(await loginStatus(second, DEMO_ADMIN_EMAIL, NEW_ADMIN_PASSWORD)).toBe(200);
    } finally {
      await second.stop();
    }
    // started again without it: the administrator keeps the password given, not the demo one
    const third = await startTestServer({}, dir);
    try {
      expect(await loginStatus(third, DEMO_ADMIN_EMAIL, NEW_ADMIN_PASSWORD)).toBe(200);
    } finally {
      await third.stop();
    }
  }, 120_000);
});
