import { describe, expect, it } from 'vitest';
import { BACKWARDS, END, jsonEvent } from '@eventstore/db-client';
import { collectAll, eventStoreContract, newEvent, sleep, waitFor } from './event-store.contract';
import { EventStoreDbEventStore, MissingPositionError, logPositionOf } from './eventstoredb-event-store';
import { IDEMPOTENCY_WINDOW, WrongExpectedRevisionError } from './port';
import { FakeEsdbClient, type FakeServerBehaviour } from './testing/fake-esdb-client';

/**
 * The adapter's own logic against the client's answers (no server runs here): FakeEsdbClient
 * answers in @eventstore/db-client 6.2.1's shapes and has the server's idempotency gaps.
 */
const OTHER_ID = 'a0000000-0000-4000-8000-000000000000';

const make = (behaviour: FakeServerBehaviour = {}, window?: number) => {
  const fake = new FakeEsdbClient(behaviour);
  const store = new EventStoreDbEventStore(fake.asClient(), { retryInitialMs: 10, idempotencyWindow: window });
  return { fake, store };
};

eventStoreContract('EventStoreDB adapter, fake 24.x server', async () => {
  const { store } = make();
  return { store, cleanup: () => store.close() };
});

eventStoreContract(
  'EventStoreDB adapter, fake 22.6 server (no caught-up signal, link events, throwOnAppendFailure=false)',
  async () => {
    const { store } = make({ caughtUpSignal: false, linkEvents: true, throwOnAppendFailure: false });
    return { store, cleanup: () => store.close() };
  },
);

describe('EventStoreDbEventStore on the client’s answers', () => {
  it('does not write again events the server would store twice (expected revision equal to the head)', async () => {
    const { fake, store } = make();
    const e = newEvent();
    const first = await store.append('s', [e], 'no_stream');
    fake.forgetRecentWrites();
    expect(await store.append('s', [e], 0)).toEqual(first);
    expect(await store.append('s', [e], 'any')).toEqual(first);
    expect(fake.stream('s').map((r) => r.id)).toEqual([e.id]);
    // the recognised retry never reached the server's append
    expect(fake.count('appendToStream')).toBe(1);
  });

  it('stores a concurrent duplicate once: the server recognises what slipped in after the adapter’s look', async () => {
    for (const expected of [0, 'any'] as const) {
      const { fake, store } = make();
      const e = newEvent();
      await store.append('s', [newEvent()], 'no_stream');
      // the original write lands between the adapter's look at the tail and its append, then another one
      fake.beforeAppend = async (streamId) => {
        fake.beforeAppend = undefined;
        await fake.appendToStream(streamId, [jsonEvent({ id: e.id, type: 'Happened', data: {} })], {
          expectedRevision: 0n,
        });
        await fake.appendToStream(streamId, [jsonEvent({ id: OTHER_ID, type: 'Other', data: {} })]);
      };
      const r = await store.append('s', [e], expected);
      const stored = fake.stream('s');
      expect(stored.map((x) => x.id)).toEqual([stored[0].id, e.id, OTHER_ID]);
      // answered like the write it was: its revision and its position
      expect(r).toEqual({ nextRevision: 1, position: (stored[1].commit << 64n) | stored[1].prepare });
    }
  });

  it('answers the stream head, not the retried batch’s revision, when the server recognises a retry past the window', async () => {
    const { fake, store } = make({}, 2);
    const batch = [newEvent(), newEvent()];
    const first = await store.append('s', batch, 'any');
    await store.append('s', [newEvent(), newEvent(), newEvent()], 'any');
    // the ids are out of the adapter's window but still in the server's recent-write cache
    const r = await store.append('s', batch, 'any');
    expect(r).toEqual({ nextRevision: 4, position: first.position });
    expect(fake.stream('s')).toHaveLength(5);
  });

  it('reads back a bounded window on a conflict, never the whole stream', async () => {
    const { fake, store } = make();
    for (let i = 0; i < 5; i++) {
      await store.append(
        'long',
        Array.from({ length: 100 }, () => newEvent()),
        i === 0 ? 'no_stream' : i * 100 - 1,
      );
    }
    fake.calls.length = 0;
    // a stale writer, and a writer that loses the race to another one
    await expect(store.append('long', [newEvent()], 3)).rejects.toMatchObject({ expected: 3, actual: 499 });
    fake.beforeAppend = async (streamId) => {
      fake.beforeAppend = undefined;
      await fake.appendToStream(streamId, [jsonEvent({ id: OTHER_ID, type: 'Other', data: {} })]);
    };
    await expect(store.append('long', [newEvent()], 499)).rejects.toMatchObject({ expected: 499, actual: 500 });
    const reads = fake.calls.filter((c) => c.method === 'readStream').map((c) => c.args[1]);
    // the tail before each append, and again after the race the second one lost: the window each time
    const window = { maxCount: IDEMPOTENCY_WINDOW, fromRevision: END, direction: BACKWARDS };
    expect(reads).toEqual([window, window, window]);
  });

  it('recognises ids within its window only: a stale re-append from further back is a conflict', async () => {
    const { store } = make({}, 5);
    const e = newEvent();
    const first = await store.append('s', [e], 'no_stream');
    await store.append(
      's',
      Array.from({ length: 4 }, () => newEvent()),
      0,
    );
    expect(await store.append('s', [e], 0)).toEqual({ nextRevision: 4, position: first.position });
    await store.append('s', [newEvent()], 4);
    await expect(store.append('s', [e], 0)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
  });

  it('turns a conflict answered as success=false (throwOnAppendFailure=false) into WrongExpectedRevisionError with the real head', async () => {
    // lose the race so that the server (not the adapter's look) refuses the append
    const other = make({ throwOnAppendFailure: false });
    await other.store.append('t', [newEvent()], 'no_stream');
    other.fake.beforeAppend = async (streamId) => {
      other.fake.beforeAppend = undefined;
      await other.fake.appendToStream(streamId, [jsonEvent({ id: OTHER_ID, type: 'Other', data: {} })]);
    };
    const err = await other.store.append('t', [newEvent()], 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WrongExpectedRevisionError);
    expect(err).toMatchObject({ streamId: 't', expected: 0, actual: 1 });
  });

  it('fails fast on events without a position (servers before 22.6 on stream reads)', async () => {
    const { store } = make({ streamReadPositions: false });
    await store.append('s', [newEvent()], 'no_stream');
    await expect(store.readStream('s')).rejects.toBeInstanceOf(MissingPositionError);
    await expect(store.append('s', [newEvent()], 0)).rejects.toBeInstanceOf(MissingPositionError);
    expect(logPositionOf({ commit: 0n, prepare: 0n })).toBeUndefined();
    expect(logPositionOf({ commit: (1n << 64n) - 1n, prepare: (1n << 64n) - 1n })).toBeUndefined();
    expect(logPositionOf({ commit: 5n, prepare: 5n })).toBe((5n << 64n) | 5n);
  });

  it('filters system events on the server for readAll and subscriptions; lastPosition reads only the trailing ones', async () => {
    const { fake, store } = make({ linkEvents: true });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await store.append('s', [newEvent()], 'any'));
    // a `$>` link event after each event, as system projections write them
    expect(fake.allRecords().filter((x) => x.type === '$>')).toHaveLength(5);
    fake.systemEventsSent = 0;
    expect(await store.lastPosition()).toBe(results[4].position);
    expect(fake.systemEventsSent).toBe(1);
    fake.systemEventsSent = 0;
    expect((await collectAll(store, undefined, 2)).map((e) => e.position)).toEqual(results.map((r) => r.position));
    // the read's own look for the head skips the one trailing link event; the read itself gets none
    expect(fake.systemEventsSent).toBe(1);
    const seen: string[] = [];
    const handle = store.subscribeToAll(async (e) => void seen.push(e.type));
    try {
      await waitFor(() => seen.length === 5);
      expect(fake.systemEventsSent).toBe(2);
      for (const filter of fake.subscriptionFilters)
        expect(filter).toMatchObject({ filterOn: 'eventType', regex: '^[^$].*' });
    } finally {
      await handle.stop();
    }
  });

  it('ends a read of $all on the server’s caught-up signal when the last event never comes', async () => {
    const { fake, store } = make({ caughtUpSignal: true });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await store.append('s', [newEvent()], 'any'));
    // the subscription does not deliver the head event (as if scavenged between the two reads)
    fake.hideFromSubscriptions(fake.stream('s')[2].id);
    expect((await collectAll(store, undefined, 10)).map((e) => e.position)).toEqual(
      results.slice(0, 2).map((r) => r.position),
    );
  });

  it('reports caught up without the server’s signal (before 23.10), from the head read at subscribe time', async () => {
    const { store } = make({ caughtUpSignal: false });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await store.append('s', [newEvent()], 'any'));
    let caughtUpAt = -1;
    const seen: bigint[] = [];
    const handle = store.subscribeToAll(async (e) => void seen.push(e.position), {
      from: results[0].position,
      onCaughtUp: () => (caughtUpAt = seen.length),
    });
    try {
      await waitFor(() => caughtUpAt >= 0);
      expect(caughtUpAt).toBe(3);
      expect(seen).toEqual(results.slice(1).map((r) => r.position));
    } finally {
      await handle.stop();
    }
  });

  it('reports caught up when the server’s signal comes after events that were all skipped', async () => {
    const { fake, store } = make({ caughtUpSignal: true });
    const r = await store.append('s', [newEvent()], 'any');
    // the server starts at the given position, so the boundary event comes again and is skipped
    let caughtUp = false;
    const delivered: bigint[] = [];
    const handle = store.subscribeToAll(async (e) => void delivered.push(e.position), {
      from: r.position,
      onCaughtUp: () => (caughtUp = true),
    });
    try {
      await waitFor(() => caughtUp);
      expect(delivered).toEqual([]);
      expect(fake.count('subscribeToAll')).toBe(1);
      const later = await store.append('s', [newEvent()], 'any');
      await waitFor(() => delivered.length === 1);
      await sleep(20);
      expect(delivered).toEqual([later.position]);
    } finally {
      await handle.stop();
    }
  });
});
