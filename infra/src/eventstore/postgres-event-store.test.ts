import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { RecordedEvent } from '@evo/domain';
import { ServiceUnavailableError } from '../services';
import { createTestDatabase, postgresAvailability, type TestDatabase } from '../testing/postgres';
import { proxyTo } from '../testing/tcp-proxy';
import { collectAll, eventStoreContract, newEvent, sleep, waitFor } from './event-store.contract';
import {
  POSITION_RANK_BITS,
  PostgresEventStore,
  isPostgresUnavailable,
  postgresSessionConfig,
} from './postgres-event-store';
import { WrongExpectedRevisionError } from './port';

const availability = await postgresAvailability();
if (!availability.ok) console.warn(`[skip] PostgreSQL event store: ${availability.reason}`);

describe.skipIf(!availability.ok)('PostgresEventStore', () => {
  let db: TestDatabase;
  const stores: PostgresEventStore[] = [];
  const open = (url = db.url, options: ConstructorParameters<typeof PostgresEventStore>[1] = {}) => {
    const s = new PostgresEventStore(url, { retryInitialMs: 20, retryMaxMs: 200, ...options });
    stores.push(s);
    return s;
  };

  beforeAll(async () => {
    db = await createTestDatabase('eventstore');
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await db?.drop();
  });

  // the contract's tests use streams of their own and look only at the log after their start: one database for all
  eventStoreContract('postgresql', async () => {
    const store = new PostgresEventStore(db.url, { retryInitialMs: 20 });
    return { store, cleanup: () => store.close() };
  });

  describe('the log in commit order (the sequence trap)', () => {
    it('a subscription never passes an event whose transaction commits after a later one: two appends committed out of order while it is live', async () => {
      const store = open();
      await store.ready();
      const start = await store.lastPosition();
      const seen: RecordedEvent[] = [];
      const handle = store.subscribeToAll(async (e) => void seen.push(e), { from: start });
      // A: an append whose transaction starts first (the smaller transaction id) and stays open
      const slow = new pg.Client({ connectionString: db.url });
      await slow.connect();
      try {
        const a = newEvent('A');
        await slow.query('BEGIN');
        const [ra] = (
          await slow.query<{ outcome: string; last_position: string }>(
            `SELECT outcome, last_position FROM evo_append($1, 'no_stream', $2, $3, $4, $5)`,
            [`gap-a-${a.id}`, [a.id], [a.type], ['{}'], ['{}']],
          )
        ).rows;
        expect(ra.outcome).toBe('appended');
        // B: a later append, committed at once
        const b = newEvent('B');
        const rb = await store.append(`gap-b-${b.id}`, [b], 'no_stream');
        // B is committed and A is not: B's position comes after A's, whatever the commit order
        expect(rb.position > BigInt(ra.last_position)).toBe(true);
        expect((await store.readStream(`gap-b-${b.id}`)).map((e) => e.id)).toEqual([b.id]);
        // the subscription must not hand B out (and checkpoint past A) while A can still commit
        await sleep(600);
        expect(seen.map((e) => e.id)).toEqual([]);
        await slow.query('COMMIT');
        await waitFor(() => seen.length >= 2);
        await sleep(200);
        expect(seen.map((e) => e.id)).toEqual([a.id, b.id]);
        expect(seen[0].position).toBe(BigInt(ra.last_position));
        expect(seen[1].position).toBe(rb.position);
        // the one-shot read agrees
        expect((await collectAll(store, start, 10)).map((e) => e.id)).toEqual([a.id, b.id]);
      } finally {
        await slow.query('ROLLBACK').catch(() => undefined);
        await slow.end();
        await handle.stop();
      }
    });

    it('readAll waits for an earlier transaction still open instead of skipping it, and leaves out one rolled back', async () => {
      const store = open();
      await store.ready();
      const start = await store.lastPosition();
      const slow = new pg.Client({ connectionString: db.url });
      await slow.connect();
      try {
        const a = newEvent('A');
        await slow.query('BEGIN');
        await slow.query(`SELECT evo_append($1, 'any', $2, $3, $4, $5)`, [
          `ra-${a.id}`,
          [a.id],
          [a.type],
          ['{}'],
          ['{}'],
        ]);
        const b = newEvent('B');
        await store.append(`rb-${b.id}`, [b], 'any');
        let read: RecordedEvent[] | undefined;
        const reading = collectAll(store, start, 10).then((r) => (read = r));
        await sleep(300);
        // B is there, but A could still come before it: the read waits
        expect(read).toBeUndefined();
        await slow.query('ROLLBACK');
        await reading;
        expect(read!.map((e) => e.id)).toEqual([b.id]);
      } finally {
        await slow.end();
      }
    });
  });

  describe('group commit', () => {
    it('concurrent appends of one store share transactions, each decided alone, in one order of the log', async () => {
      const store = open();
      await store.ready();
      const start = await store.lastPosition();
      const run = newEvent().id;
      const fresh = Array.from({ length: 30 }, (_, i) => ({
        streamId: `group-${run}-${i}`,
        events: [newEvent('G', { i }), newEvent('H', { i })],
      }));
      // expected revision 3 of streams that do not exist: refused, and the group's other appends not
      const refused = Array.from({ length: 5 }, (_, i) => ({
        streamId: `group-${run}-missing-${i}`,
        events: [newEvent('G')],
      }));
      const outcomes = await Promise.allSettled([
        ...fresh.map((a) => store.append(a.streamId, a.events, 'no_stream')),
        ...refused.map((a) => store.append(a.streamId, a.events, 3)),
      ]);
      const written = outcomes.slice(0, fresh.length).map((o) => {
        if (o.status === 'rejected') throw o.reason;
        return o.value;
      });
      for (const o of outcomes.slice(fresh.length)) {
        expect(o.status).toBe('rejected');
        expect((o as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
      }
      for (const r of written) expect(r).toMatchObject({ nextRevision: 1, written: true });
      // fewer transactions than appends: the high bits of a position are its transaction's id
      const transactions = new Set(written.map((r) => r.position >> POSITION_RANK_BITS));
      expect(transactions.size).toBeLessThan(fresh.length / 2);
      // each append whole, at the position it was answered, and the log's order one total order
      const log = (await collectAll(store, start, 1000)).filter((e) => e.streamId.startsWith(`group-${run}-`));
      expect(log).toHaveLength(fresh.length * 2);
      expect(new Set(log.map((e) => e.position)).size).toBe(log.length);
      for (const [i, a] of fresh.entries()) {
        const stored = await store.readStream(a.streamId);
        expect(stored.map((e) => e.id)).toEqual(a.events.map((e) => e.id));
        expect(stored[1].position).toBe(written[i].position);
        expect(stored[1].position - stored[0].position).toBe(1n);
      }
      for (const a of refused) expect(await store.readStream(a.streamId)).toEqual([]);
    });

    it('a retry in the same group as its first call is stored once', async () => {
      const store = open();
      await store.ready();
      const streamId = `group-retry-${newEvent().id}`;
      const e = newEvent();
      // four others keep the statements in flight busy: the two calls wait and go together
      const others = Array.from({ length: 4 }, () => {
        const o = newEvent();
        return store.append(`group-other-${o.id}`, [o], 'no_stream');
      });
      const [first, retry] = await Promise.all([
        store.append(streamId, [e], 'no_stream'),
        store.append(streamId, [e], 'no_stream'),
        ...others,
      ]);
      expect(first.position >> POSITION_RANK_BITS).toBe(retry.position >> POSITION_RANK_BITS);
      expect(first.written).toBe(true);
      expect(retry).toEqual({ ...first, written: false });
      expect((await store.readStream(streamId)).map((x) => x.id)).toEqual([e.id]);
    });

    it('an append expecting any or stream_exists goes alone: the function refuses it in a group', async () => {
      const store = open();
      await store.ready();
      const run = newEvent().id;
      const start = await store.lastPosition();
      // through the store, amid checked appends that share transactions: each unchecked one in a
      // transaction of its own
      const checked = Array.from({ length: 8 }, (_, i) =>
        store.append(`alone-${run}-c${i}`, [newEvent()], 'no_stream'),
      );
      const unchecked = Array.from({ length: 4 }, (_, i) =>
        store
          .append(`alone-${run}-u${i}`, [newEvent()], i % 2 ? 'any' : 'stream_exists')
          .catch(() => store.append(`alone-${run}-u${i}`, [newEvent()], 'any')),
      );
      const alone = await Promise.all(unchecked);
      await Promise.all(checked);
      const log = await collectAll(store, start, 1000);
      for (const r of alone) {
        const sameTransaction = log.filter(
          (e) => e.position >> POSITION_RANK_BITS === r.position >> POSITION_RANK_BITS,
        );
        expect(sameTransaction).toHaveLength(1);
      }
      // the SQL itself: a group that holds one is refused whole, nothing stored
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        const [a, b] = [newEvent(), newEvent()];
        await expect(
          c.query('SELECT * FROM evo_append_group($1, $2, $3, $4, $5, $6, $7)', [
            [`alone-${run}-x`, `alone-${run}-y`],
            ['no_stream', 'any'],
            [1, 1],
            [a.id, b.id],
            [a.type, b.type],
            ['{}', '{}'],
            ['{}', '{}'],
          ]),
        ).rejects.toThrow(/goes alone/);
        expect(await store.readStream(`alone-${run}-x`)).toEqual([]);
      } finally {
        await c.end();
      }
    });

    it('one append the server refuses does not fail the others of its group', async () => {
      const store = open();
      await store.ready();
      const run = newEvent().id;
      // four keep the statements in flight busy: the next two wait and go together
      const busy = Array.from({ length: 4 }, (_, i) =>
        store.append(`refused-${run}-busy-${i}`, [newEvent()], 'no_stream'),
      );
      const good = store.append(`refused-${run}-good`, [newEvent()], 'no_stream');
      // a NUL byte: PostgreSQL's text refuses it
      const bad = store.append(`refused-${run}-bad-\u0000`, [newEvent()], 'no_stream');
      const [g, b] = await Promise.allSettled([good, bad, ...busy]);
      expect(g.status, String((g as PromiseRejectedResult).reason)).toBe('fulfilled');
      expect(b.status).toBe('rejected');
      expect(await store.readStream(`refused-${run}-good`)).toHaveLength(1);
    });
  });

  describe('live subscriptions across processes', () => {
    it('wake on the NOTIFY of another store: delivered long before the next poll', async () => {
      const reader = open(db.url, { pollIntervalMs: 60_000 });
      const writer = open();
      await reader.ready();
      const seen: string[] = [];
      let caughtUp = false;
      const handle = reader.subscribeToAll(async (e) => void seen.push(e.id), {
        from: await reader.lastPosition(),
        onCaughtUp: () => (caughtUp = true),
      });
      try {
        await waitFor(() => caughtUp);
        // the listening connection is up once the subscription has caught up and waited a little
        await sleep(300);
        const e = newEvent();
        const began = Date.now();
        await writer.append(`notify-${e.id}`, [e], 'no_stream');
        await waitFor(() => seen.length === 1, 5000);
        expect(seen).toEqual([e.id]);
        expect(Date.now() - began).toBeLessThan(5000);
      } finally {
        await handle.stop();
      }
    });

    it('survive a dropped connection and resume from their checkpoint, each event once', async () => {
      const { proxy, url } = await proxyTo(db.url, 5432);
      const reader = open(url, { pollIntervalMs: 200, connectTimeoutMs: 1000 });
      const writer = open();
      await reader.ready();
      const errors: unknown[] = [];
      const seen: string[] = [];
      const handle = reader.subscribeToAll(async (e) => void seen.push(e.id), {
        from: await reader.lastPosition(),
        onError: (err) => errors.push(err),
      });
      try {
        const before = [newEvent(), newEvent(), newEvent()];
        for (const e of before) await writer.append(`drop-${e.id}`, [e], 'no_stream');
        await waitFor(() => seen.length === 3);
        await proxy.close();
        const during = [newEvent(), newEvent(), newEvent()];
        for (const e of during) await writer.append(`drop-${e.id}`, [e], 'no_stream');
        await waitFor(() => errors.length > 0, 10_000);
        expect(seen).toHaveLength(3);
        await proxy.open();
        const after = [newEvent(), newEvent()];
        for (const e of after) await writer.append(`drop-${e.id}`, [e], 'no_stream');
        await waitFor(() => seen.length >= 8, 15_000);
        await sleep(300);
        expect(seen).toEqual([...before, ...during, ...after].map((e) => e.id));
        expect(errors.every((e) => e instanceof ServiceUnavailableError)).toBe(true);
      } finally {
        await handle.stop();
        await proxy.close();
      }
    });
  });

  describe('a stream locked by another session', () => {
    /** a session of its own holding `streamId`'s row lock, as an append in flight does */
    const lockStream = async (config: pg.ClientConfig, streamId: string) => {
      const session = new pg.Client(config);
      const ended = new Promise<unknown>((resolve) => session.on('error', resolve));
      await session.connect();
      await session.query('BEGIN');
      await session.query('SELECT head FROM evo_streams WHERE stream_id = $1 FOR UPDATE', [streamId]);
      return { session, ended };
    };

    it('fails only the append to that stream, with ServiceUnavailableError once the lock timeout passes', async () => {
      const store = open(db.url, { lockTimeoutMs: 1000 });
      const run = newEvent().id;
      const locked = `locked-${run}`;
      await store.append(locked, [newEvent('A')], 'no_stream');
      const { session } = await lockStream({ connectionString: db.url }, locked);
      try {
        const settled: string[] = [];
        // with the locked one, enough appends to share statements with it (group commit); they come
        // after it in the statement's stream order ('locked-' < 'unlocked-')
        const others = Array.from({ length: 20 }, (_, i) =>
          store
            .append(`unlocked-${run}-${i}`, [newEvent('B', { i })], 'no_stream')
            .finally(() => settled.push('other')),
        );
        const waiting = store.append(locked, [newEvent('C')], 0).then(
          () => 'appended',
          (err: unknown) => err,
        );
        void waiting.then(() => settled.push('locked'));
        for (const r of await Promise.all(others)) expect(r.written).toBe(true);
        const refused = await waiting;
        expect(refused).toBeInstanceOf(ServiceUnavailableError);
        // those that shared its statement went again at once, not after a second wait for the lock
        expect(settled.at(-1)).toBe('locked');
        expect(((refused as ServiceUnavailableError).cause as { code?: string }).code).toBe('55P03');
      } finally {
        await session.query('ROLLBACK');
        await session.end();
      }
      // the lock gone, the same append goes through: nothing of the refused one was stored
      expect((await store.append(locked, [newEvent('C')], 0)).nextRevision).toBe(1);
      expect((await store.readStream(locked)).map((e) => e.type)).toEqual(['A', 'C']);
    });

    it("a session of the store's left idle inside its transaction (its replica lost) is ended by the server, and the stream with it", async () => {
      const store = open();
      const stream = `lost-replica-${newEvent().id}`;
      await store.append(stream, [newEvent('A')], 'no_stream');
      // the settings every session of a store opens with, the idle time cut short
      const { ended } = await lockStream(postgresSessionConfig(db.url, { idleInTransactionMs: 300 }), stream);
      // the server's reason: idle_in_transaction_session_timeout
      expect(await ended).toMatchObject({ code: '25P03' });
      expect((await store.append(stream, [newEvent('B')], 0)).nextRevision).toBe(1);
    });
  });

  describe('PostgreSQL away', () => {
    it('appends in flight fail with ServiceUnavailableError or succeed, never half; the store recovers by itself', async () => {
      const { proxy, url } = await proxyTo(db.url, 5432);
      const store = open(url, { connectTimeoutMs: 1000 });
      const direct = open();
      await store.ready();

      // a load of 3-event appends; the server vanishes in the middle of it
      const appends = Array.from({ length: 120 }, (_, i) => ({
        streamId: `outage-${i}-${newEvent().id}`,
        events: [newEvent('X', { i }), newEvent('Y', { i }), newEvent('Z', { i })],
      }));
      const outcomes = appends.map(async (a, i) => {
        await sleep(i * 3);
        return store.append(a.streamId, a.events, 'no_stream').then(
          () => 'ok' as const,
          (err: unknown) => err,
        );
      });
      await sleep(150);
      await proxy.close();
      const settled = await Promise.all(outcomes);
      const failed = settled.filter((o) => o !== 'ok');
      // an append started once the server was gone fails
      expect(settled.at(-1)).toBeInstanceOf(ServiceUnavailableError);
      for (const f of failed) expect(f).toBeInstanceOf(ServiceUnavailableError);
      // whatever its answer, each append is in the log whole or not at all
      for (let i = 0; i < appends.length; i++) {
        const stored = await direct.readStream(appends[i].streamId);
        if (settled[i] === 'ok') expect(stored).toHaveLength(3);
        else expect([0, 3]).toContain(stored.length);
      }
      // while it is away, reads fail the same way
      await expect(store.lastPosition()).rejects.toBeInstanceOf(ServiceUnavailableError);

      await proxy.open();
      const e = newEvent();
      await waitFor(() => true);
      const r = await store.append(`outage-after-${e.id}`, [e], 'no_stream');
      expect(r.nextRevision).toBe(0);
      await proxy.close();
    });

    it('tells a server gone from a fault of the query', () => {
      expect(isPostgresUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
        true,
      );
      expect(isPostgresUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
      expect(isPostgresUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
      expect(isPostgresUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
      expect(isPostgresUnavailable(new WrongExpectedRevisionError('s', 0, 1))).toBe(false);
    });
  });

  it('refuses a database holding a newer log format', async () => {
    const other = await createTestDatabase('eventstore_newer');
    try {
      const first = new PostgresEventStore(other.url);
      await first.ready();
      await first.close();
      const client = new pg.Client({ connectionString: other.url });
      await client.connect();
      await client.query('INSERT INTO evo_schema (version) VALUES (99)');
      await client.end();
      const second = new PostgresEventStore(other.url);
      await expect(second.ready()).rejects.toThrow(/format 99/);
      await second.close();
    } finally {
      await other.drop();
    }
  });
});
