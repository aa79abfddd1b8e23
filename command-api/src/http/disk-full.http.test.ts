import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Client,
  demoVideo,
  registerAndLogin,
  startTestServer,
  type Member,
  type TestServer,
} from '../testing/test-server';
import { MESSAGES } from './errors';
import { AUTH_ROUTE_MESSAGES } from '../identity/routes';

/**
 * A full disk (issue 29 item 6): DATA_DIR on a small filesystem of the test's own (tmpfs), filled
 * to the last byte. A write answers a French 503 and changes nothing, unless the event log still
 * had room for it (its write-ahead log, restarted after a checkpoint, rewrites pages the file
 * already has): then it is answered as done, and it is in the log once. Logout leaves the session
 * as it was and says so; once space is freed everything works again.
 */
const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'evo-full-disk-'));
/** a tmpfs needs root (CAP_SYS_ADMIN); elsewhere the test says why it does not run */
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('[skip] full-disk tests: no tmpfs could be mounted here (they need root)');
    return false;
  }
})();
const filler = path.join(mountPoint, 'remplissage');

/** Writes until the filesystem has no byte left. */
function fillDisk() {
  const fd = openSync(filler, 'w');
  try {
    for (const size of [1 << 20, 1 << 12, 1]) {
      const chunk = Buffer.alloc(size);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
}
const freeDisk = () => rmSync(filler, { force: true });

let server: TestServer;
let fan: Member;
let creator: Member;
let videoId: number;
beforeAll(async () => {
  if (!mounted) return;
  server = await startTestServer({}, path.join(mountPoint, 'data'));
  [fan, creator] = [await registerAndLogin(server.url), await registerAndLogin(server.url)];
  expect((await fan.client.post('/api/coins/purchase', { email: fan.member.email, packId: 1 })).status).toBe(200);
  const profile = await fan.client.get(`/api/users/profile/${creator.member.pseudo}`);
  videoId = (profile.json.videos as Array<{ id: number }>)[0].id;
  await server.settle(60_000);
});
afterAll(async () => {
  freeDisk();
  await server?.stop();
  if (mounted) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** The log's events, as "type stream". */
const logged = async () => {
  const all: string[] = [];
  for await (const batch of server.deps.events.readAll()) for (const e of batch) all.push(`${e.type} ${e.streamId}`);
  return all;
};

const upload = (m: Member) => {
  return demoVideo().then((video) => {
    const form = new FormData();
    form.append('title', 'Malgré le disque plein');
    form.append('video', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'x.mp4');
    return m.client.post('/api/videos/upload', form);
  });
};

/** Every write the attack tried, as the member sends it, with the event type it appends. */
const writes = (login: Client) =>
  [
    [
      'login',
      'UserLoggedIn',
      () => login.post('/api/auth/login', { email: fan.member.email, password: fan.member.password }),
    ],
    ['comment', 'CommentPosted', () => fan.client.post(`/api/videos/${videoId}/comment`, { content: 'Bravo !' })],
    [
      'gift',
      'GiftSent',
      () =>
        fan.client.post('/api/gifts/send', {
          sender_email: fan.member.email,
          receiver_pseudo: creator.member.pseudo,
          gift_id: 1,
        }),
    ],
    [
      'purchase',
      'CoinsPurchased',
      () => fan.client.post('/api/coins/purchase', { email: fan.member.email, packId: 1 }),
    ],
    ['like', 'VideoLiked', () => fan.client.post(`/api/videos/${videoId}/like`)],
    ['upload', 'VideoUploaded', () => upload(fan)],
  ] as const;

const typeOf = (line: string) => line.split(' ')[0];

describe.skipIf(!mounted)('a full disk', () => {
  it('answers a French 503 to every write the log could not take, changes nothing else, keeps a session it could not end, and recovers', async () => {
    // the login is tried from a browser with a session of its own, which a refused login leaves as it was
    const secondBrowser = new Client(server.url);
    const first = await secondBrowser.post('/api/auth/login', {
      email: fan.member.email,
      password: fan.member.password,
    });
    expect(first.status).toBe(200);
    const loggedBefore = (await logged()).length;
    const wallet = (await fan.client.get(`/api/coins/balance/${fan.member.email}`)).json;
    const accepted = new Set<string>();
    fillDisk();
    try {
      for (const [name, type, write] of writes(secondBrowser)) {
        const r = await write();
        const appended = (await logged()).slice(loggedBefore).filter((line) => typeOf(line) === type);
        if (r.status === 503) {
          expect(r.json.error, name).toBe(MESSAGES.diskFull);
          expect(Number(r.headers.get('retry-after')), name).toBeGreaterThan(0);
          expect(appended, `${name}: refused, so not in the log`).toEqual([]);
        } else {
          // the log took it (the rest, read models and the session's read-your-writes, may not have)
          expect(r.status, `${name}: ${r.text}`).toBeLessThan(300);
          expect(appended, `${name}: answered as done, so in the log once`).toHaveLength(1);
          accepted.add(name);
        }
      }
      // a login needs its session written: refused, no login in the log without a session, and
      // the browser's session goes on
      expect(accepted.has('login')).toBe(false);
      expect((await secondBrowser.get('/api/auth/me')).status).toBe(200);
      const logout = await fan.client.post('/api/auth/logout');
      expect(logout.status).toBe(503);
      expect(logout.json.error).toBe(AUTH_ROUTE_MESSAGES.logoutNotRecorded);
      expect(logout.headers.get('set-cookie')).toBeNull();
      // the session goes on: the member was told so
      expect((await fan.client.get('/api/auth/me')).status).toBe(200);
    } finally {
      freeDisk();
    }

    // space freed: what was refused goes through, and each write is there once
    for (const [name, , write] of writes(secondBrowser)) {
      if (accepted.has(name)) continue;
      const r = await write();
      expect(r.status, `${name}: ${r.text}`).toBeLessThan(300);
    }
    expect((await fan.client.get(`/api/coins/balance/${fan.member.email}`)).json).toMatchObject({
      coins_balance: (wallet.coins_balance as number) + 110 - 1,
    });
    const comments = (await fan.client.get(`/api/videos/${videoId}/comments`)).json.items as unknown[];
    expect(comments).toHaveLength(1);
    const logout = await fan.client.post('/api/auth/logout');
    expect(logout.status).toBe(204);
    expect((await fan.client.get('/api/auth/me')).status).toBe(401);
    expect((await secondBrowser.get('/api/auth/me')).status).toBe(200);
  }, 180_000);
});
