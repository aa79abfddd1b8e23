import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@evo/domain';
import { WrongExpectedRevisionError, type AppendResult } from './port';
import { SqliteEventStore } from './sqlite-event-store';
import { DurableMark } from './durable-mark';
import { startScript } from '../testing/run-script';
import {
  collectAll,
  eventStoreContract,
  newEvent,
  randomAppendsMatchTheModel,
  sleep,
  waitFor,
} from './event-store.contract';

const here = dirname(fileURLToPath(import.meta.url));

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evo-es-'));
  dirs.push(dir);
  return join(dir, 'events.db');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

eventStoreContract('sqlite (temp file)', async () => {
  const store = new SqliteEventStore(tempFile());
  return { store, cleanup: () => store.close() };
});

describe('SqliteEventStore specifics', () => {
  const open: SqliteEventStore[] = [];
  const make = (file = tempFile(), options = {}) => {
    const s = new SqliteEventStore(file, options);
    open.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  it('starts empty, numbers positions from 1, and works in memory', async () => {
    const store = make(':memory:');
    expect(await store.lastPosition()).toBeUndefined();
    expect(await collectAll(store, undefined, 10)).toEqual([]);
    const r = await store.append('a', [newEvent(), newEvent()], 'no_stream');
    expect(r.position).toBe(2n);
    expect((await collectAll(store, undefined, 10)).map((e) => e.position)).toEqual([1n, 2n]);
  });

  it('uses WAL, its commits synced by the store itself (synchronous=NORMAL)', async () => {
    const file = tempFile();
    make(file);
    const Database = (await import('better-sqlite3')).default;
    const probe = new Database(file);
    try {
      expect(probe.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      probe.close();
    }
    // synchronous is per connection: read the adapter's own setting
    const store = make(file);
    const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
  });

  /** a store whose fsyncs of the log wait until the test lets them finish */
  const heldSyncs = (file = tempFile()) => {
    const held: Array<{ fd: number; finish: (err?: NodeJS.ErrnoException) => void }> = [];
    const store = make(file, {
      pollIntervalMs: 20,
      syncFile: (fd: number, done: (err: NodeJS.ErrnoException | null) => void) =>
        held.push({ fd, finish: (err) => done(err ?? null) }),
    });
    return { store, held };
  };

  it('answers an append only once the write-ahead log holding it is fsynced', async () => {
    const file = tempFile();
    const { store, held } = heldSyncs(file);
    let answered = false;
    const first = store.append('a', [newEvent()], 'no_stream').then((r) => ((answered = true), r));
    await waitFor(() => held.length === 1, 1000);
    await sleep(30);
    expect(answered).toBe(false);
    // the fsync is of the log file itself
    const { fstatSync, statSync } = await import('node:fs');
    expect(fstatSync(held[0].fd).ino).toBe(statSync(`${file}-wal`).ino);
    held[0].finish();
    expect(await first).toMatchObject({ nextRevision: 0, position: 1n });
    expect(store.commitStats().syncs).toBe(1);
  });

  it('commits the appends made during an fsync together once it is done, and fsyncs them with the next', async () => {
    const { store, held } = heldSyncs();
    const first = store.append('a', [newEvent()], 'no_stream');
    await waitFor(() => held.length === 1, 1000);
    // appends over several turns of the event loop while the first fsync is under way
    const later: Promise<AppendResult>[] = [];
    for (let i = 0; i < 3; i++) {
      later.push(store.append(`b${i}`, [newEvent()], 'no_stream'));
      await sleep(5);
    }
    expect(store.commitStats().transactions).toBe(1);
    expect(await store.readStream('b0')).toEqual([]);
    held[0].finish();
    await first;
    await waitFor(() => held.length === 2, 1000);
    expect(store.commitStats().transactions).toBe(2);
    held[1].finish();
    expect((await Promise.all(later)).map((r) => r.position)).toEqual([2n, 3n, 4n]);
    expect(store.commitStats()).toMatchObject({ transactions: 2, appends: 4, syncs: 2 });
  });

  it('delivers to subscriptions only what is durable, in log order', async () => {
    const { store, held } = heldSyncs();
    const seen: bigint[] = [];
    const handle = store.subscribeToAll(async (e) => void seen.push(e.position));
    try {
      const a = store.append('a', [newEvent(), newEvent()], 'no_stream');
      await waitFor(() => held.length === 1, 1000);
      await sleep(60); // polls have come and gone
      expect(seen).toEqual([]);
      expect(await store.readStream('a')).toHaveLength(2);
      const b = store.append('b', [newEvent()], 'no_stream');
      held[0].finish();
      await a;
      await waitFor(() => seen.length === 2, 1000);
      await sleep(60);
      expect(seen).toEqual([1n, 2n]);
      await waitFor(() => held.length === 2, 1000);
      held[1].finish();
      await b;
      await waitFor(() => seen.length === 3, 1000);
      expect(seen).toEqual([1n, 2n, 3n]);
    } finally {
      await handle.stop();
    }
  });

  it("follows another thread's appends through a connection of its own, delivering only what that thread has fsynced (DurableMark)", async () => {
    const file = tempFile();
    const mark = new DurableMark();
    const held: Array<() => void> = [];
    const writer = make(file, {
      publishDurable: mark,
      syncFile: (_fd: number, done: (err: NodeJS.ErrnoException | null) => void) => held.push(() => done(null)),
    });
    // a long poll: only the mark's moves wake it in time for the waits below
    const follower = make(file, { followDurable: mark, pollIntervalMs: 60_000 });
    const seen: bigint[] = [];
    const handle = follower.subscribeToAll(async (e) => void seen.push(e.position));
    try {
      const a = writer.append('a', [newEvent(), newEvent()], 'no_stream');
      await waitFor(() => held.length === 1, 1000);
      // committed, visible to the follower's connection, not yet durable
      expect(mark.firstNotDurable()).toBe(1);
      expect(await collectAll(follower, undefined, 10)).toHaveLength(2);
      await sleep(60);
      expect(seen).toEqual([]);
      const b = writer.append('b', [newEvent()], 'no_stream');
      held[0]();
      await a;
      await waitFor(() => seen.length === 2, 1000);
      // the second append is committed during the first fsync's wait, then fsynced by the next
      await waitFor(() => held.length === 2, 1000);
      expect(mark.firstNotDurable()).toBe(3);
      await sleep(60);
      expect(seen).toEqual([1n, 2n]);
      held[1]();
      await b;
      await waitFor(() => seen.length === 3, 1000);
      expect(seen).toEqual([1n, 2n, 3n]);
      expect(mark.firstNotDurable()).toBe(DurableMark.NONE);
    } finally {
      await handle.stop();
    }
  });

  it('fails the appends of a failed fsync, and goes on with the next', async () => {
    const { store, held } = heldSyncs();
    const event = newEvent();
    const lost = store.append('a', [event], 'no_stream');
    await waitFor(() => held.length === 1, 1000);
    held[0].finish(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    await expect(lost).rejects.toThrow(/EIO/);
    // committed to the log, not known durable: the caller's retry is answered from it (idempotent by event id)
    const retry = store.append('a', [event], 'no_stream');
    await waitFor(() => held.length === 2, 1000);
    held[1].finish();
    expect(await retry).toEqual({ nextRevision: 0, position: 1n, written: false });
  });

  it('groups appends of the same tick into one transaction; a failing one does not fail its neighbours', async () => {
    const store = make();
    await store.append('hot', [newEvent()], 'no_stream');
    const before = store.commitStats();
    const partial = newEvent();
    await store.append('multi', [partial], 'no_stream');
    const calls: Promise<AppendResult>[] = [];
    for (let i = 0; i < 20; i++) calls.push(store.append(`s${i}`, [newEvent(), newEvent()], 'no_stream'));
    calls.push(store.append('hot', [newEvent()], 'no_stream')); // stream exists: conflict
    calls.push(store.append('multi', [partial, newEvent()], 'any')); // partial overlap: conflict
    calls.push(store.append('bad', [newEvent('X', { n: 1n })], 'any')); // not JSON: rejected at once
    calls.push(store.append('hot', [newEvent()], 0));
    const settled = await Promise.allSettled(calls);
    const stats = store.commitStats();

    expect(settled.slice(0, 20).every((s) => s.status === 'fulfilled')).toBe(true);
    expect(settled[20]).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedRevisionError) });
    expect(settled[21]).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedRevisionError) });
    expect(settled[22]).toMatchObject({ status: 'rejected', reason: expect.any(TypeError) });
    expect(settled[23]).toMatchObject({ status: 'fulfilled', value: { nextRevision: 1 } });
    // 'multi' went in its own transaction, then all the rest in one
    expect(stats.transactions - before.transactions).toBe(2);
    expect(stats.appends - before.appends).toBe(22);
    expect(await store.readStream('multi')).toHaveLength(1);
    const positions = settled
      .filter((s): s is PromiseFulfilledResult<AppendResult> => s.status === 'fulfilled')
      .map((s) => s.value.position);
    expect(new Set(positions).size).toBe(positions.length);
  });

  it('keeps transactions far fewer than appends under concurrency', async () => {
    const store = make();
    const before = store.commitStats().transactions;
    // 16 appenders, each waiting for its previous append: later groups form from promise continuations
    await Promise.all(
      Array.from({ length: 16 }, async (_, k) => {
        let expected: number | 'no_stream' = 'no_stream';
        for (let i = 0; i < 20; i++) expected = (await store.append(`w${k}`, [newEvent()], expected)).nextRevision;
      }),
    );
    const transactions = store.commitStats().transactions - before;
    expect(transactions).toBeLessThanOrEqual(40);
    expect((await collectAll(store, undefined, 1000)).length).toBe(320);
  });

  it('is idempotent by event id whatever the expected revision', async () => {
    const store = make();
    const e1 = newEvent();
    const e2 = newEvent();
    await store.append('a', [e1, e2], 'no_stream');
    const r3 = await store.append('a', [newEvent()], 1);
    for (const expected of ['any', 'stream_exists', 'no_stream', 2, 0, 9] as const) {
      const r = await store.append('a', [e1, e2], expected);
      expect(r).toEqual({ nextRevision: 2, position: 2n, written: false });
    }
    expect(await store.append('a', [e2], 2)).toEqual({ nextRevision: 2, position: 2n, written: false });
    await expect(store.append('a', [e2, newEvent()], 'any')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await expect(store.append('a', [newEvent(), e1], 2)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await store.lastPosition()).toBe(r3.position);
    // the same id may be used in another stream: idempotency is per stream
    expect((await store.append('b', [e1], 'no_stream')).nextRevision).toBe(0);
  });

  it('treats a duplicate queued in the same group as a retry', async () => {
    const store = make();
    const e = newEvent();
    const [a, b] = await Promise.all([store.append('a', [e], 'no_stream'), store.append('a', [e], 'no_stream')]);
    expect(a.written).toBe(true);
    expect(b).toEqual({ ...a, written: false });
    expect(await store.readStream('a')).toHaveLength(1);
  });

  it('rejects malformed appends without touching the log', async () => {
    const store = make();
    const e = newEvent();
    await expect(store.append('a', [], 'any')).rejects.toBeInstanceOf(RangeError);
    await expect(store.append('a', [e, e], 'any')).rejects.toBeInstanceOf(RangeError);
    await expect(store.append('a', [newEvent()], -1)).rejects.toBeInstanceOf(RangeError);
    await expect(store.append('a', [newEvent()], 1.5)).rejects.toBeInstanceOf(RangeError);
    expect(await store.lastPosition()).toBeUndefined();
  });

  it('matches the model when random appends are all issued in the same tick', async () => {
    const store = make();
    await randomAppendsMatchTheModel(
      store,
      (run, k) => `r${run}-s${k}`,
      async (plan, model) => {
        const expectations: { ok: boolean }[] = [];
        const calls: Promise<AppendResult>[] = [];
        for (const planned of plan) {
          expectations.push(model.apply(planned.streamId, planned.events, planned.expected));
          calls.push(store.append(planned.streamId, planned.events, planned.expected));
        }
        const settled = await Promise.allSettled(calls);
        expect(settled.map((s) => s.status === 'fulfilled')).toEqual(expectations.map((e) => e.ok));
      },
      { numRuns: 100, batchSize: 1000 },
    );
  });

  it('flushes queued appends on close and refuses new ones', async () => {
    const file = tempFile();
    const store = new SqliteEventStore(file);
    const pending = store.append('a', [newEvent()], 'no_stream');
    await store.close();
    await expect(pending).resolves.toMatchObject({ nextRevision: 0 });
    await expect(store.append('a', [newEvent()], 'any')).rejects.toThrow(/closed/);
    const reopened = make(file);
    expect(await reopened.readStream('a')).toHaveLength(1);
  });

  it('lets a second instance on the same file see appends by polling', async () => {
    const file = tempFile();
    const writer = make(file);
    const reader = make(file, { pollIntervalMs: 50 });
    const seen: RecordedEvent[] = [];
    const handle = reader.subscribeToAll(async (e) => void seen.push(e));
    try {
      const events = [newEvent(), newEvent(), newEvent()];
      await writer.append('a', [events[0]], 'no_stream');
      await writer.append('b', [events[1], events[2]], 'no_stream');
      await waitFor(() => seen.length >= 3, 2000);
      await sleep(150);
      expect(seen.map((e) => e.id)).toEqual(events.map((e) => e.id));
      // and the reader can append after the writer: revisions follow the file, not a cache
      expect((await reader.append('a', [newEvent()], 0)).nextRevision).toBe(1);
    } finally {
      await handle.stop();
    }
  });

  it("gives every subscription its own appends from memory and another writer's from the file, in log order", async () => {
    const file = tempFile();
    const store = make(file, { pollIntervalMs: 20 });
    const other = make(file);
    const seen: RecordedEvent[][] = [[], []];
    const handles = seen.map((list) => store.subscribeToAll(async (e) => void list.push(e)));
    try {
      for (let i = 0; i < 30; i++) {
        const writer = i % 4 === 3 ? other : store;
        const events = i % 5 === 0 ? [newEvent('N', { i, n: 0 }), newEvent('N', { i, n: 1 })] : [newEvent('N', { i })];
        await writer.append(`s${i % 3}`, events, 'any');
      }
      const all = await collectAll(store, undefined, 1000);
      await waitFor(() => seen.every((list) => list.length === all.length), 3000);
      await sleep(60);
      // what the file holds, field by field, to each subscription, once
      for (const list of seen) expect(list).toEqual(all);
      // the events this store wrote are decoded once for all its subscriptions
      const own = all.findIndex((e) => e.streamId === 's0');
      expect(seen[0][own]).toBe(seen[1][own]);
    } finally {
      for (const h of handles) await h.stop();
    }
  });

  it("delivers another writer's append made after its own last one, with or without more of its own", async () => {
    const file = tempFile();
    const store = make(file, { pollIntervalMs: 40 });
    const other = make(file);
    const seen: string[] = [];
    const handle = store.subscribeToAll(async (e) => void seen.push(e.id));
    try {
      const own = newEvent();
      await store.append('a', [own], 'no_stream');
      await waitFor(() => seen.length === 1, 2000);
      // nothing more of its own: the poll finds it
      const foreign = newEvent();
      await other.append('b', [foreign], 'no_stream');
      await waitFor(() => seen.length === 2, 2000);
      // its own keep coming (each wakes the subscription): the foreign one is still found, in order
      const foreign2 = newEvent();
      await other.append('b', [foreign2], 0);
      const mine: string[] = [];
      while (!seen.includes(foreign2.id)) {
        const e = newEvent();
        mine.push(e.id);
        await store.append('a', [e], 'any');
      }
      await waitFor(() => seen.length === 3 + mine.length, 2000);
      expect(seen).toEqual([own.id, foreign.id, foreign2.id, ...mine]);
    } finally {
      await handle.stop();
    }
  });

  it('reads and appends past the heads it remembers once another instance has written the stream', async () => {
    const file = tempFile();
    const store = make(file);
    const other = make(file);
    await store.append('x', [newEvent()], 'no_stream');
    expect(await store.readStream('x', 1)).toEqual([]); // past the end, from memory
    const theirs = newEvent();
    await other.append('x', [theirs], 0);
    expect((await store.readStream('x', 1)).map((e) => e.id)).toEqual([theirs.id]);
    // a decision on the old head conflicts; 'any' goes after their event, not over it
    await other.append('x', [newEvent()], 1);
    await expect(store.append('x', [newEvent()], 1)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await other.append('x', [newEvent()], 2);
    expect((await store.append('x', [newEvent()], 'any')).nextRevision).toBe(4);
    expect((await other.readStream('x')).map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
    // a stream it has never seen, then another instance's first event in it
    expect(await store.readStream('y')).toEqual([]);
    await other.append('y', [newEvent()], 'no_stream');
    expect(await store.readStream('y')).toHaveLength(1);
    await expect(store.append('y', [newEvent()], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
  });

  it('answers a conflict, and forgets the head, when a revision it thought free is taken', async () => {
    const store = make(tempFile());
    await store.append('x', [newEvent()], 'no_stream');
    // a row written on the store's own connection: data_version does not change, the remembered
    // head (0) is now wrong, which nothing but such a write can do
    const db = (store as unknown as { db: { prepare(sql: string): { run(...args: unknown[]): unknown } } }).db;
    db.prepare(
      'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
    ).run('x', 1, 'behind-its-back', 'N', '{}', '{}');
    await expect(store.append('x', [newEvent()], 0)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    // the head is read again from the file: a decision made on the row now in the stream succeeds
    // (no read in between, which would learn the head too), and the refused append wrote nothing
    expect((await store.append('x', [newEvent()], 1)).nextRevision).toBe(2);
    expect((await store.readStream('x')).map((e) => e.revision)).toEqual([0, 1, 2]);
  });

  it('keeps everything when the file is reopened', async () => {
    const file = tempFile();
    const first = new SqliteEventStore(file);
    const written: string[] = [];
    for (let i = 0; i < 30; i++) {
      const e = newEvent('N', { i, texte: 'déjà vu' });
      written.push(e.id);
      await first.append(`s${i % 3}`, [e], 'any');
    }
    await first.close();
    const second = make(file);
    const all = await collectAll(second, undefined, 7);
    expect(all.map((e) => e.id)).toEqual(written);
    expect(all.map((e) => e.position)).toEqual(written.map((_, i) => BigInt(i + 1)));
    expect(await second.lastPosition()).toBe(30n);
    expect((await second.append('s0', [newEvent()], 9)).position).toBe(31n);
  });

  it('backs off exponentially, with a cap, while a handler keeps failing', async () => {
    const store = make(undefined, { retryInitialMs: 10, retryMaxMs: 80 });
    await store.append('a', [newEvent()], 'no_stream');
    const attempts: number[] = [];
    let delivered = 0;
    const errors: unknown[] = [];
    const handle = store.subscribeToAll(
      async () => {
        attempts.push(Date.now());
        if (attempts.length <= 6) throw new Error(`fail ${attempts.length}`);
        delivered++;
      },
      { onError: (e) => errors.push(e) },
    );
    try {
      await waitFor(() => delivered === 1, 3000);
      expect(errors).toHaveLength(6);
      const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
      // 10, 20, 40, 80, 80, 80 ms: growing, then capped (timers may fire a little late)
      expect(gaps[2]).toBeGreaterThanOrEqual(35);
      expect(gaps[5]).toBeGreaterThanOrEqual(75);
      expect(gaps[5]).toBeLessThan(400);
      await sleep(100);
      expect(delivered).toBe(1);
    } finally {
      await handle.stop();
    }
  });

  it('keeps every acknowledged append across kill -9', async () => {
    const file = tempFile();
    const script = join(here, 'testing', 'append-forever.ts');
    const { child, out, err, exited } = startScript(script, [file, '4']);
    try {
      await waitFor(() => out().includes('\n'), 15_000);
    } catch (e) {
      child.kill('SIGKILL');
      throw new Error(`child never acknowledged an append: ${err()}`, { cause: e });
    }
    await sleep(1000);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // only complete lines were acknowledged; the last one may be cut
    const acked = out().split('\n').slice(0, -1);
    expect(acked.length).toBeGreaterThan(50);
    const store = make(file);
    const all = await collectAll(store, undefined, 1000);
    const counts = new Map<string, number>();
    for (const e of all) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
    for (const id of acked) expect(counts.get(id)).toBe(1);
    expect(counts.size).toBe(all.length);
    for (let k = 0; k < 4; k++) {
      const revisions = (await store.readStream(`kill-${k}`)).map((e) => e.revision);
      expect(revisions).toEqual(revisions.map((_, i) => i));
    }
  }, 30_000);
});
