import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import { LEDGER_MESSAGES, REPORT_MESSAGES } from '@evo/domain';
import { MESSAGES } from './errors';
import { Client, registerAndLogin, startTestServer, type TestServer } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';

/** Issue 29 item 10: the smaller findings, each through HTTP. */
const t = serverFixture();

const settle = async () => {
  await t.server.settle(60_000);
  expect(await t.server.deps.progress.waitFor((await t.server.deps.events.lastPosition())!, 20_000)).toBe(true);
};

async function memberWithVideo() {
  const m = await t.member();
  await settle();
  const profile = (await m.client.get(`/api/users/profile/${m.member.pseudo}`)).json as {
    videos: Array<{ id: number }>;
  };
  return { ...m, videoId: profile.videos[0].id };
}

describe("ffmpeg: the system's first", () => {
  it('/health says which ffmpeg reads the uploads: the system one here (Debian installs it)', async () => {
    const health = await fetch(`${t.server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', ffmpeg: 'system' });
  });
});

describe('content security policy', () => {
  it("allows WebAssembly (face filters) but not eval: no 'unsafe-eval'", async () => {
    const csp = (await fetch(`${t.server.url}/health`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toContain("'unsafe-eval'");
  });
});

describe('own video', () => {
  it('a member cannot report their own video: a French 403, nothing written', async () => {
    const { client, videoId } = await memberWithVideo();
    const before = await t.server.deps.events.lastPosition();
    const r = await client.post(`/api/report/${videoId}`, { reason: 'Je me signale' });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ error: REPORT_MESSAGES.ownVideo });
    expect(await t.server.deps.events.lastPosition()).toEqual(before);
    // another member can
    const other = await t.member();
    expect((await other.client.post(`/api/report/${videoId}`, { reason: 'Spam' })).status).toBe(201);
  });

  it("the owner's own views do not count; another member's do", async () => {
    const { client, videoId } = await memberWithVideo();
    for (let i = 0; i < 3; i++) expect((await client.post('/api/videos/views', { videoId })).status).toBe(200);
    await settle();
    const views = async () =>
      ((await client.get(`/api/videos/${videoId}`)).json as { views_count: number }).views_count;
    expect(await views()).toBe(0);
    const other = await t.member();
    expect((await other.client.post('/api/videos/views', { videoId })).status).toBe(200);
    await settle();
    expect(await views()).toBe(1);
  });
});

describe('coin amounts', () => {
  it("'1e3' says a whole number of coins written in digits is expected", async () => {
    const { client, member } = await t.member();
    for (const amount of ['1e3', '10 coins', '1 000', 'mille']) {
      const r = await client.post('/api/coins/add', { email: member.email, amount });
      expect(r.status, amount).toBe(400);
      expect(r.json).toEqual({ error: LEDGER_MESSAGES.amountNotDigits });
    }
    const w = await client.post('/api/coins/withdraw', { user_email: member.email, amount: '1e3' });
    expect(w.status).toBe(400);
    expect(w.json).toEqual({ error: LEDGER_MESSAGES.amountNotDigits });
    // digits are taken
    expect((await client.post('/api/coins/add', { email: member.email, amount: '1000' })).status).toBe(200);
  });
});

describe('Idempotency-Key', () => {
  it('over 200 characters is refused in French (400), not cut; 200 is taken', async () => {
    const { client, member } = await t.member();
    const before = await t.server.deps.events.lastPosition();
    const long = await client.post(
      '/api/coins/purchase',
      { email: member.email, packId: 1 },
      {
        'Idempotency-Key': 'k'.repeat(201),
      },
    );
    expect(long.status).toBe(400);
    expect(long.json).toEqual({ error: MESSAGES.idempotencyKeyTooLong });
    expect(await t.server.deps.events.lastPosition()).toEqual(before);
    const key = 'k'.repeat(200);
    const first = await client.post(
      '/api/coins/purchase',
      { email: member.email, packId: 1 },
      { 'Idempotency-Key': key },
    );
    expect(first.status).toBe(200);
    // a key cut to 200 would have made this a replay of the first
    const other = await client.post(
      '/api/coins/purchase',
      { email: member.email, packId: 1 },
      {
        'Idempotency-Key': `${key}x`,
      },
    );
    expect(other.status).toBe(400);
  });
});

describe('data files', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'evo-modes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('are created 0600 in folders 0700, whatever the umask; an older 0644 file is tightened', async () => {
    const dataDir = path.join(root, 'data');
    const umask = process.umask(0o022);
    let modes: TestServer | undefined;
    try {
      // an events file an older version left world-readable
      mkdirSync(dataDir, { mode: 0o755 });
      closeSync(openSync(path.join(dataDir, 'events.sqlite'), 'w', 0o644));
      chmodSync(path.join(dataDir, 'events.sqlite'), 0o644);
      modes = await startTestServer({ DEMO_DATA: 'false' }, dataDir);
      // a member with a profile picture and a video, sessions, read models, a processed poster
      const m = await registerAndLogin(modes.url);
      const admin = new Client(modes.url);
      expect(
        (await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD })).status,
      ).toBe(200);
      await modes.settle(60_000);
      expect(await modes.deps.progress.waitFor((await modes.deps.events.lastPosition())!, 20_000)).toBe(true);
      expect((await m.client.get(`/api/users/profile/${m.member.pseudo}`)).status).toBe(200);

      const seen: Array<{ file: string; mode: string }> = [];
      const walk = (dir: string) => {
        seen.push({ file: `${path.relative(root, dir)}/`, mode: (statSync(dir).mode & 0o777).toString(8) });
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(full);
          else seen.push({ file: path.relative(root, full), mode: (statSync(full).mode & 0o777).toString(8) });
        }
      };
      walk(dataDir);
      const names = seen.map((s) => s.file);
      for (const expected of ['data/events.sqlite', 'data/sessions.sqlite', 'data/read-models.sqlite'])
        expect(names).toContain(expected);
      expect(names.some((n) => n.startsWith('data/uploads/videos/') && !n.endsWith('/'))).toBe(true);
      expect(names.some((n) => n.startsWith('data/uploads/profile_pics/') && !n.endsWith('/'))).toBe(true);
      const wrong = seen.filter((s) => s.mode !== (s.file.endsWith('/') ? '700' : '600'));
      expect(wrong).toEqual([]);
    } finally {
      process.umask(umask);
      await modes?.stop();
    }
  }, 120_000);
});
