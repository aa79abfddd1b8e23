import { describe, it, expect, afterAll } from 'vitest';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, registerAndLogin, startTestServer } from '../testing/test-server';

/** Embedded sessions live in DATA_DIR (issue 11 item 3): a restart logs nobody out. */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A client of `base` holding `cookie`, as the same browser after the restart. */
const withCookie = (base: string, cookie: string) => Object.assign(new Client(base), { cookie });

describe('embedded sessions', () => {
  it('outlive a restart on the same DATA_DIR, and a logout before it still holds after it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-sessions-restart-'));
    dirs.push(dir);
    let server = await startTestServer({}, dir);
    const stays = await registerAndLogin(server.url);
    const leaves = await registerAndLogin(server.url);
    const leftCookie = leaves.client.cookie;
    expect((await leaves.client.post('/api/auth/logout')).status).toBe(204);
    await server.stop();

    server = await startTestServer({}, dir);
    try {
      const same = withCookie(server.url, stays.client.cookie);
      const me = await same.get('/api/auth/me');
      expect(me.status, me.text).toBe(200);
      expect(me.json.email).toBe(stays.member.email);
      // and it still writes
      expect((await same.put('/api/notifications/read-all')).status).toBe(200);
      expect((await withCookie(server.url, leftCookie).get('/api/auth/me')).status).toBe(401);
      // the cookie secret kept beside the sessions is the owner's only
      expect((await stat(path.join(dir, 'session-secret'))).mode & 0o077).toBe(0);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
