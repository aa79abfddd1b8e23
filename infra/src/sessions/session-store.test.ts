import { describe, it, expect, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionStore } from './port';
import { MemorySessionStore } from './memory-session-store';
import { RedisSessionStore } from './redis-session-store';
import { SqliteSessionStore } from './sqlite-session-store';
import { skippedSuite } from '../testing/skipped-suite';

function sessionStoreContract(name: string, make: () => SessionStore) {
  describe(`SessionStore contract: ${name}`, () => {
    const store = make();
    afterAll(() => store.close());
    it('stores, reads and destroys a session', async () => {
      const id = randomUUID();
      expect(await store.get(id)).toBeUndefined();
      await store.set(id, { userId: 'u1', createdAt: 1, lastPosition: '42' }, 60);
      expect(await store.get(id)).toEqual({ userId: 'u1', createdAt: 1, lastPosition: '42' });
      await store.destroy(id);
      expect(await store.get(id)).toBeUndefined();
    });
    it('replaces a session on a second write and keeps sessions apart', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      await store.set(a, { userId: 'ua', createdAt: 1 }, 60);
      await store.set(b, { userId: 'ub', createdAt: 2 }, 60);
      await store.set(a, { userId: 'ua', createdAt: 1, lastPosition: '7' }, 60);
      expect(await store.get(a)).toEqual({ userId: 'ua', createdAt: 1, lastPosition: '7' });
      expect(await store.get(b)).toEqual({ userId: 'ub', createdAt: 2 });
    });
    it('hands out copies: changing what get answered changes nothing stored', async () => {
      const id = randomUUID();
      await store.set(id, { userId: 'u3', createdAt: 3 }, 60);
      const read = await store.get(id);
      read!.userId = 'autre';
      expect((await store.get(id))?.userId).toBe('u3');
    });
    it("ends every session of a member but the one kept, and no one else's", async () => {
      const member = `m-${randomUUID()}`;
      const [kept, other, older, someoneElse] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await store.set(older, { userId: member, createdAt: 1 }, 60);
      await store.set(other, { userId: member, createdAt: 2 }, 60);
      await store.set(kept, { userId: member, createdAt: 3 }, 60);
      await store.set(someoneElse, { userId: `x-${member}`, createdAt: 4 }, 60);
      expect(await store.get(older)).toBeDefined();
      await store.destroyAllOf(member, kept);
      expect(await store.get(older)).toBeUndefined();
      expect(await store.get(other)).toBeUndefined();
      expect(await store.get(kept)).toEqual({ userId: member, createdAt: 3 });
      expect(await store.get(someoneElse)).toEqual({ userId: `x-${member}`, createdAt: 4 });
      await store.destroyAllOf(member);
      expect(await store.get(kept)).toBeUndefined();
      await expect(store.destroyAllOf(`nobody-${member}`)).resolves.toBeUndefined();
    });
    it('updates a session still there, and never brings back one that was ended or never was', async () => {
      const [live, ended, member] = [randomUUID(), randomUUID(), `m-${randomUUID()}`];
      await store.set(live, { userId: member, createdAt: 1 }, 60);
      await store.update(live, { userId: member, createdAt: 1, lastPosition: '9' }, 60);
      expect(await store.get(live)).toEqual({ userId: member, createdAt: 1, lastPosition: '9' });
      await store.set(ended, { userId: member, createdAt: 2 }, 60);
      await store.destroy(ended);
      await store.update(ended, { userId: member, createdAt: 2, lastPosition: '10' }, 60);
      expect(await store.get(ended)).toBeUndefined();
      await store.destroyAllOf(member);
      await store.update(live, { userId: member, createdAt: 1, lastPosition: '11' }, 60);
      expect(await store.get(live)).toBeUndefined();
      const unknown = randomUUID();
      await store.update(unknown, { userId: member, createdAt: 3 }, 60);
      expect(await store.get(unknown)).toBeUndefined();
    });
    it("ends, with the member's other sessions, one kept alive by updates past its first time to live", async () => {
      const [id, member] = [randomUUID(), `m-${randomUUID()}`];
      await store.set(id, { userId: member, createdAt: 1 }, 1);
      await store.update(id, { userId: member, createdAt: 1, lastPosition: '5' }, 60);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await store.get(id)).toBeDefined();
      await store.destroyAllOf(member);
      expect(await store.get(id)).toBeUndefined();
    });
    it('destroys an unknown session without complaint', async () => {
      await expect(store.destroy(randomUUID())).resolves.toBeUndefined();
    });
    it('expires a session after its time to live, counted from its last write', async () => {
      const [id, renewed] = [randomUUID(), randomUUID()];
      await store.set(id, { userId: 'u2', createdAt: 1 }, 1);
      await store.set(renewed, { userId: 'u4', createdAt: 1 }, 1);
      await store.set(renewed, { userId: 'u4', createdAt: 1 }, 60);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await store.get(id)).toBeUndefined();
      expect(await store.get(renewed)).toEqual({ userId: 'u4', createdAt: 1 });
    });
  });
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'evo-sessions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

sessionStoreContract('memory', () => new MemorySessionStore());
sessionStoreContract('sqlite', () => new SqliteSessionStore(path.join(dir, 'contract.sqlite')));
if (process.env.REDIS_URL) {
  sessionStoreContract('redis', () => new RedisSessionStore(process.env.REDIS_URL!, `evo-test:${randomUUID()}:`));
} else {
  skippedSuite(
    'RedisSessionStore tests skipped: REDIS_URL is not set',
    'SessionStore contract: redis (REDIS_URL not set)',
    'runs against Redis',
  );
}

/** What a store opened anew on `file` (another process, a restart) answers for each id; it is closed after. */
async function readBack(file: string, ids: string[], now?: () => number) {
  const store = new SqliteSessionStore(file, now);
  try {
    return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await store.get(id)] as const)));
  } finally {
    await store.close();
  }
}

describe('SqliteSessionStore', () => {
  it('keeps sessions across a reopen of its file, and still expires them', async () => {
    const file = path.join(dir, 'reopen.sqlite');
    let now = 1_000_000;
    const first = new SqliteSessionStore(file, () => now);
    await first.set('kept', { userId: 'u5', createdAt: 5 }, 60);
    await first.set('short', { userId: 'u6', createdAt: 6 }, 10);
    await first.close();
    now += 11_000;
    expect(await readBack(file, ['kept', 'short'], () => now)).toEqual({
      kept: { userId: 'u5', createdAt: 5 },
      short: undefined,
    });
  });

  it('writes the changes of one turn in their order, in memory as in its file', async () => {
    const file = path.join(dir, 'order.sqlite');
    const store = new SqliteSessionStore(file);
    await store.set('gone', { userId: 'u8', createdAt: 8 }, 60);
    // made in one turn: one group, applied in this order
    const writes = [
      store.set('gone', { userId: 'u8', createdAt: 8, lastPosition: '3' }, 60),
      store.destroy('gone'),
      store.set('back', { userId: 'u9', createdAt: 9 }, 60),
      store.set('back', { userId: 'u9', createdAt: 9, lastPosition: '12' }, 60),
    ];
    expect(await store.get('gone')).toBeUndefined();
    expect(await store.get('back')).toEqual({ userId: 'u9', createdAt: 9, lastPosition: '12' });
    await Promise.all(writes);
    await store.close();
    expect(await readBack(file, ['gone', 'back'])).toEqual({
      gone: undefined,
      back: { userId: 'u9', createdAt: 9, lastPosition: '12' },
    });
  });

  it('refuses a write once closed, and writes what was queued before', async () => {
    const file = path.join(dir, 'closed.sqlite');
    const store = new SqliteSessionStore(file);
    const queued = store.set('queued', { userId: 'u10', createdAt: 10 }, 60);
    await store.close();
    await expect(queued).resolves.toBeUndefined();
    await expect(store.set('late', { userId: 'u11', createdAt: 11 }, 60)).rejects.toThrow(/closed/);
    expect(await readBack(file, ['queued', 'late'])).toEqual({
      queued: { userId: 'u10', createdAt: 10 },
      late: undefined,
    });
  });

  it('stores no session id in its file', async () => {
    const file = path.join(dir, 'hashed.sqlite');
    const store = new SqliteSessionStore(file);
    const id = 'identifiant-de-session-secret';
    await store.set(id, { userId: 'u7', createdAt: 7 }, 60);
    await store.close();
    // closing the last connection checkpoints the WAL into the file
    const bytes = readFileSync(file);
    expect(bytes.includes(Buffer.from(id))).toBe(false);
    expect(bytes.includes(Buffer.from('u7'))).toBe(true);
  });
});

describe('SqliteSessionStore, ending a member’s sessions', () => {
  it('ends the sessions the file holds that this store never read', async () => {
    const file = path.join(dir, 'all-of.sqlite');
    const first = new SqliteSessionStore(file);
    await first.set('a', { userId: 'u7', createdAt: 1 }, 60);
    await first.set('b', { userId: 'u7', createdAt: 2 }, 60);
    await first.close();
    const second = new SqliteSessionStore(file);
    const ending = second.destroyAllOf('u7', 'b');
    // a request of 'a' that ends meanwhile does not bring it back
    await second.update('a', { userId: 'u7', createdAt: 1, lastPosition: '3' }, 60);
    await ending;
    expect(await second.get('a')).toBeUndefined();
    expect(await second.get('b')).toEqual({ userId: 'u7', createdAt: 2 });
    await second.close();
  });
});
