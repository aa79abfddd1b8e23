import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LogPosition, NewEvent, RecordedEvent } from '@evo/domain';
import {
  IDEMPOTENCY_WINDOW,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
} from './port';

/**
 * Behaviour every EventStore adapter must have. Tests only look at the log after the position
 * they start from and use their own stream names, so a shared server (EventStoreDB) works too.
 */
export function eventStoreContract(
  name: string,
  make: () => Promise<{ store: EventStore; cleanup: () => Promise<void> }>,
): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    let cleanup: () => Promise<void>;
    let prefix: string;
    let start: LogPosition | undefined;
    const sid = (s: string) => `${prefix}${s}`;

    beforeEach(async () => {
      ({ store, cleanup } = await make());
      prefix = `c${randomUUID().slice(0, 8)}-`;
      start = await store.lastPosition();
    });
    afterEach(async () => {
      await cleanup();
    });

    describe('append and expected revisions', () => {
      it('appends to a new stream with no_stream', async () => {
        const e = newEvent('Created', { n: 1 });
        const r = await store.append(sid('a'), [e], 'no_stream');
        expect(r.nextRevision).toBe(0);
        const read = await store.readStream(sid('a'));
        expect(read).toHaveLength(1);
        expect(read[0]).toMatchObject({ id: e.id, type: 'Created', data: { n: 1 }, streamId: sid('a'), revision: 0 });
        expect(read[0].position).toBe(r.position);
        if (start !== undefined) expect(r.position > start).toBe(true);
      });

      it('rejects no_stream on an existing stream', async () => {
        await store.append(sid('a'), [newEvent()], 'no_stream');
        const err = await store.append(sid('a'), [newEvent()], 'no_stream').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(WrongExpectedRevisionError);
        expect(err).toMatchObject({ streamId: sid('a'), expected: 'no_stream', actual: 0 });
        expect(await store.readStream(sid('a'))).toHaveLength(1);
      });

      it('accepts the exact revision and rejects a stale one', async () => {
        const r1 = await store.append(sid('a'), [newEvent(), newEvent()], 'no_stream');
        expect(r1.nextRevision).toBe(1);
        const r2 = await store.append(sid('a'), [newEvent()], 1);
        expect(r2.nextRevision).toBe(2);
        expect(r2.position > r1.position).toBe(true);
        const err = await store.append(sid('a'), [newEvent()], 1).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(WrongExpectedRevisionError);
        expect(err).toMatchObject({ expected: 1, actual: 2 });
        await expectConflict(store.append(sid('a'), [newEvent()], 7));
        expect((await store.readStream(sid('a'))).map((e) => e.revision)).toEqual([0, 1, 2]);
      });

      it('rejects stream_exists on a missing stream and accepts it on an existing one', async () => {
        await expectConflict(store.append(sid('missing'), [newEvent()], 'stream_exists'));
        expect(await store.readStream(sid('missing'))).toEqual([]);
        await store.append(sid('a'), [newEvent()], 'no_stream');
        const r = await store.append(sid('a'), [newEvent()], 'stream_exists');
        expect(r.nextRevision).toBe(1);
      });

      it('accepts any on missing and existing streams', async () => {
        expect((await store.append(sid('a'), [newEvent()], 'any')).nextRevision).toBe(0);
        expect((await store.append(sid('a'), [newEvent(), newEvent()], 'any')).nextRevision).toBe(2);
      });

      it('numbers revisions from 0 without gaps', async () => {
        let expected: ExpectedRevision = 'no_stream';
        for (const size of [1, 3, 2, 1, 4]) {
          const r = await store.append(
            sid('a'),
            Array.from({ length: size }, () => newEvent()),
            expected,
          );
          expected = r.nextRevision;
        }
        const revisions = (await store.readStream(sid('a'))).map((e) => e.revision);
        expect(revisions).toEqual(Array.from({ length: 11 }, (_, i) => i));
      });

      it('gives strictly increasing positions across streams, in append order', async () => {
        const appended: string[] = [];
        const results: { streamId: string; result: AppendResult }[] = [];
        for (let i = 0; i < 12; i++) {
          const streamId = sid(`s${i % 3}`);
          const events = [newEvent(), newEvent()];
          results.push({ streamId, result: await store.append(streamId, events, 'any') });
          appended.push(...events.map((e) => e.id));
        }
        const all = await collectAll(store, start, 1000);
        expect(all.map((e) => e.id)).toEqual(appended);
        for (let i = 1; i < all.length; i++) expect(all[i].position > all[i - 1].position).toBe(true);
        // the answered position is that of the append's last event
        for (const { streamId, result } of results) {
          const last = (await store.readStream(streamId, result.nextRevision))[0];
          expect(last.position).toBe(result.position);
        }
      });
    });

    describe('readStream', () => {
      it('answers [] for a missing stream', async () => {
        expect(await store.readStream(sid('nothing-here'))).toEqual([]);
        expect(await store.readStream(sid('nothing-here'), 3)).toEqual([]);
      });

      it('reads from a revision', async () => {
        const events = Array.from({ length: 5 }, (_, i) => newEvent('N', { i }));
        await store.append(sid('a'), events, 'no_stream');
        const read = await store.readStream(sid('a'), 2);
        expect(read.map((e) => e.revision)).toEqual([2, 3, 4]);
        expect(read.map((e) => e.id)).toEqual(events.slice(2).map((e) => e.id));
        expect(await store.readStream(sid('a'), 5)).toEqual([]);
      });
    });

    describe('idempotency by event id', () => {
      it('re-appending stored events with a stale expected revision succeeds and stores nothing', async () => {
        const e1 = newEvent('First');
        const e2 = newEvent('Second');
        const first = await store.append(sid('a'), [e1], 'no_stream');
        const second = await store.append(sid('a'), [e2], 0);
        const countBefore = (await collectAll(store, start, 100)).length;

        // the retry of the first append, as a client would send it after a lost answer
        const retry = await store.append(sid('a'), [e1], 'no_stream');
        expect(retry.position).toBe(first.position);
        // nothing written by the retry: a caller caching the stream must not take it for its own write
        expect(retry.written).not.toBe(true);
        // the stream's head, not the revision the retried append got
        expect(retry.nextRevision).toBe(1);
        const retry2 = await store.append(sid('a'), [e2], 0);
        expect(retry2.position).toBe(second.position);
        expect(retry2.nextRevision).toBe(1);

        const read = await store.readStream(sid('a'));
        expect(read.map((e) => e.id)).toEqual([e1.id, e2.id]);
        expect((await collectAll(store, start, 100)).length).toBe(countBefore);
        expect(await store.lastPosition()).toBe(second.position);
      });

      it('re-appending a multi-event append answers the position of its last event', async () => {
        const batch = [newEvent(), newEvent(), newEvent()];
        const first = await store.append(sid('a'), batch, 'no_stream');
        await store.append(sid('a'), [newEvent()], 2);
        const retry = await store.append(sid('a'), batch, 'no_stream');
        expect(retry.position).toBe(first.position);
        expect(retry.nextRevision).toBe(3);
        expect(await store.readStream(sid('a'))).toHaveLength(4);
      });

      it('re-appending stored events with the head as expected revision (a retry that re-read the stream) stores nothing', async () => {
        const e1 = newEvent();
        const first = await store.append(sid('a'), [e1], 'no_stream');
        const retry = await store.append(sid('a'), [e1], 0);
        expect(at(retry)).toEqual(at(first));
        expect(retry.written).not.toBe(true);
        const batch = [newEvent(), newEvent()];
        const second = await store.append(sid('a'), batch, 0);
        for (const expected of [2, 'any', 'stream_exists'] as const) {
          const again = await store.append(sid('a'), batch, expected);
          expect(at(again)).toEqual(at(second));
          expect(again.written).not.toBe(true);
        }
        expect((await store.readStream(sid('a'))).map((e) => e.id)).toEqual([e1.id, ...batch.map((e) => e.id)]);
      });

      it("recognises a re-append while its events are among the stream's last IDEMPOTENCY_WINDOW events", async () => {
        const e = newEvent();
        const first = await store.append(sid('a'), [e], 'no_stream');
        const later = Array.from({ length: IDEMPOTENCY_WINDOW - 1 }, () => newEvent());
        await store.append(sid('a'), later, 0);
        const head = IDEMPOTENCY_WINDOW - 1;
        for (const expected of [head, 'any', 'stream_exists', 'no_stream', 0] as const) {
          const again = await store.append(sid('a'), [e], expected);
          expect(at(again)).toEqual({ nextRevision: head, position: first.position });
          expect(again.written).not.toBe(true);
        }
        expect(await store.readStream(sid('a'))).toHaveLength(IDEMPOTENCY_WINDOW);
      });

      it('refuses an append that repeats an event id within itself, storing nothing', async () => {
        const e = newEvent();
        await expect(store.append(sid('a'), [e, newEvent(), e], 'any')).rejects.toBeInstanceOf(RangeError);
        await expect(store.append(sid('a'), [e, e], 'no_stream')).rejects.toBeInstanceOf(RangeError);
        expect(await store.readStream(sid('a'))).toEqual([]);
        await store.append(sid('a'), [e], 'no_stream');
        await expect(store.append(sid('a'), [newEvent(), newEvent(), e, e], 0)).rejects.toBeInstanceOf(RangeError);
        expect((await store.readStream(sid('a'))).map((r) => r.id)).toEqual([e.id]);
      });

      it('rejects a partial overlap with stored events', async () => {
        const e1 = newEvent();
        const e2 = newEvent();
        await store.append(sid('a'), [e1, e2], 'no_stream');
        await store.append(sid('a'), [newEvent()], 1);
        await expectConflict(store.append(sid('a'), [e2, newEvent()], 0));
        expect(await store.readStream(sid('a'))).toHaveLength(3);
      });
    });

    describe('readAll', () => {
      it('reads from a position in batches of the requested size, in order, without loss', async () => {
        const appended: NewEvent[] = [];
        for (let i = 0; i < 25; i++) {
          const e = newEvent('N', { i });
          appended.push(e);
          await store.append(sid(`s${i % 4}`), [e], 'any');
        }
        const batches: RecordedEvent[][] = [];
        for await (const b of store.readAll(start, 7)) batches.push(b);
        expect(batches.map((b) => b.length)).toEqual([7, 7, 7, 4]);
        const flat = batches.flat();
        expect(flat.map((e) => e.id)).toEqual(appended.map((e) => e.id));
        expect(flat.map((e) => (e.data as { i: number }).i)).toEqual(appended.map((_, i) => i));

        // from the position of the 10th event: exclusive
        const tenth = flat[9].position;
        const rest = await collectAll(store, tenth, 5);
        expect(rest.map((e) => e.id)).toEqual(appended.slice(10).map((e) => e.id));
        const batchSizes: number[] = [];
        for await (const b of store.readAll(tenth, 5)) batchSizes.push(b.length);
        expect(batchSizes).toEqual([5, 5, 5]);

        // from the last position: nothing
        expect(await collectAll(store, flat[flat.length - 1].position, 5)).toEqual([]);
      });

      it('uses batches of at most 1000 by default', async () => {
        const events = Array.from({ length: 1200 }, () => newEvent());
        for (let i = 0; i < events.length; i += 100) {
          await store.append(sid('big'), events.slice(i, i + 100), 'any');
        }
        const sizes: number[] = [];
        for await (const b of store.readAll(start)) sizes.push(b.length);
        expect(sizes).toEqual([1000, 200]);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up, reports it, then delivers live events once and in order', async () => {
        const before = [newEvent(), newEvent(), newEvent()];
        for (const e of before) await store.append(sid('a'), [e], 'any');
        const seen: string[] = [];
        let caughtUpAt = -1;
        const handle = store.subscribeToAll(
          async (e) => {
            seen.push(e.id);
          },
          { from: start, onCaughtUp: () => (caughtUpAt = seen.length) },
        );
        try {
          await waitFor(() => caughtUpAt >= 0 && seen.length >= 3);
          expect(caughtUpAt).toBe(3);
          const after = [newEvent(), newEvent(), newEvent()];
          await store.append(sid('b'), [after[0]], 'any');
          await store.append(sid('a'), [after[1], after[2]], 'any');
          await waitFor(() => seen.length >= 6);
          await sleep(300);
          expect(seen).toEqual([...before, ...after].map((e) => e.id));
        } finally {
          await handle.stop();
        }
      });

      it('starts after the given position', async () => {
        const events = Array.from({ length: 5 }, () => newEvent());
        const results: AppendResult[] = [];
        for (const e of events) results.push(await store.append(sid('a'), [e], 'any'));
        const seen: RecordedEvent[] = [];
        const handle = store.subscribeToAll(async (e) => void seen.push(e), { from: results[1].position });
        try {
          await waitFor(() => seen.length >= 3);
          await sleep(200);
          expect(seen.map((e) => e.id)).toEqual(events.slice(2).map((e) => e.id));
          expect(seen[0].position > results[1].position).toBe(true);
        } finally {
          await handle.stop();
        }
      });

      it('reports caught up at once when there is nothing to catch up', async () => {
        await store.append(sid('a'), [newEvent()], 'any');
        let caughtUp = false;
        const seen: string[] = [];
        const handle = store.subscribeToAll(async (e) => void seen.push(e.id), {
          from: await store.lastPosition(),
          onCaughtUp: () => (caughtUp = true),
        });
        try {
          await waitFor(() => caughtUp);
          expect(seen).toEqual([]);
        } finally {
          await handle.stop();
        }
      });

      it('stops delivering after stop(), which waits for the running handler', async () => {
        const seen: string[] = [];
        let release: () => void = () => undefined;
        const gate = new Promise<void>((r) => (release = r));
        let handlerDone = false;
        const handle = store.subscribeToAll(
          async (e) => {
            seen.push(e.id);
            await gate;
            handlerDone = true;
          },
          { from: start },
        );
        await store.append(sid('a'), [newEvent()], 'any');
        await waitFor(() => seen.length === 1);
        let stopped = false;
        const stopping = handle.stop().then(() => (stopped = true));
        await sleep(100);
        expect(stopped).toBe(false);
        release();
        await stopping;
        expect(handlerDone).toBe(true);
        await store.append(sid('a'), [newEvent(), newEvent()], 'any');
        await sleep(400);
        expect(seen).toHaveLength(1);
      });

      it('retries a handler that throws once, without loss or duplicates', async () => {
        const events = Array.from({ length: 6 }, () => newEvent());
        for (const e of events.slice(0, 3)) await store.append(sid('a'), [e], 'any');
        const calls: string[] = [];
        const delivered: string[] = [];
        const errors: unknown[] = [];
        let thrown = false;
        const handle = store.subscribeToAll(
          async (e) => {
            calls.push(e.id);
            if (e.id === events[1].id && !thrown) {
              thrown = true;
              throw new Error('handler failure');
            }
            delivered.push(e.id);
          },
          { from: start, onError: (err) => errors.push(err) },
        );
        try {
          await waitFor(() => delivered.length >= 3);
          for (const e of events.slice(3)) await store.append(sid('b'), [e], 'any');
          await waitFor(() => delivered.length >= 6);
          await sleep(300);
          expect(delivered).toEqual(events.map((e) => e.id));
          expect(errors).toHaveLength(1);
          expect((errors[0] as Error).message).toBe('handler failure');
          // the failed event is the only one handed over twice
          expect(calls.filter((id) => id === events[1].id)).toHaveLength(2);
          expect(calls).toHaveLength(7);
        } finally {
          await handle.stop();
        }
      });
    });

    describe('concurrency', () => {
      it('lets exactly one of 50 concurrent appends with the same expected revision win', async () => {
        await store.append(sid('hot'), [newEvent()], 'no_stream');
        const settled = await Promise.allSettled(
          Array.from({ length: 50 }, () => store.append(sid('hot'), [newEvent()], 0)),
        );
        const won = settled.filter((s) => s.status === 'fulfilled');
        const lost = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(49);
        for (const l of lost) expect(l.reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(await store.readStream(sid('hot'))).toHaveLength(2);
      });

      it('accepts 200 concurrent appends to 200 streams with distinct positions', async () => {
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) => store.append(sid(`p${i}`), [newEvent('N', { i })], 'no_stream')),
        );
        expect(results.every((r) => r.nextRevision === 0)).toBe(true);
        expect(new Set(results.map((r) => r.position)).size).toBe(200);
        const all = await collectAll(store, start, 1000);
        expect(all).toHaveLength(200);
        expect(new Set(all.map((e) => e.streamId)).size).toBe(200);
      });
    });

    it('round-trips data and metadata (unicode, nested objects)', async () => {
      const e: NewEvent = {
        id: randomUUID(),
        type: 'CommentaireAjouté',
        data: {
          texte: 'Élodie a aimé la vidéo « Crème brûlée à l’œuf » — 5 €, ça déchire ! 🎉',
          auteur: { pseudo: 'zoé_du_17', badges: ['créatrice', 'vérifiée'], âge: 23 },
          nombres: [0, -1, 3.25, 1e21],
          vide: null,
          vrai: true,
          profond: { a: { b: { c: [{ d: 'ï' }] } } },
        },
        metadata: {
          userId: 'u-42',
          correlationId: randomUUID(),
          causationId: randomUUID(),
          at: '2026-03-01T12:34:56.789Z',
          idempotencyKey: 'clé-ünique',
          origine: { ip: '::1', agent: 'Navigateur « test »' },
        },
      };
      await store.append(sid('fr'), [e], 'no_stream');
      const [read] = await store.readStream(sid('fr'));
      expect(read.id).toBe(e.id);
      expect(read.type).toBe(e.type);
      expect(read.data).toEqual(e.data);
      expect(read.metadata).toEqual(e.metadata);
      const [fromLog] = await collectAll(store, start, 10);
      expect(fromLog.data).toEqual(e.data);
      expect(fromLog.metadata).toEqual(e.metadata);
    });

    it('answers the last position of the log', async () => {
      const r1 = await store.append(sid('a'), [newEvent()], 'any');
      expect(await store.lastPosition()).toBe(r1.position);
      const r2 = await store.append(sid('b'), [newEvent(), newEvent()], 'any');
      expect(r2.position > r1.position).toBe(true);
      expect(await store.lastPosition()).toBe(r2.position);
    });

    it('behaves like an in-memory model for random appends (property)', async () => {
      await randomAppendsMatchTheModel(
        store,
        (run, k) => sid(`r${run}-s${k}`),
        async (plan, model) => {
          for (const planned of plan) {
            const expectedOutcome = model.apply(planned.streamId, planned.events, planned.expected);
            const actual = await store
              .append(planned.streamId, planned.events, planned.expected)
              .then((r) => ({ ok: true as const, r }))
              .catch((error: unknown) => ({ ok: false as const, error }));
            expect(actual.ok).toBe(expectedOutcome.ok);
            if (!actual.ok) expect(actual.error).toBeInstanceOf(WrongExpectedRevisionError);
            if (actual.ok && expectedOutcome.ok && !expectedOutcome.idempotent) {
              expect(actual.r.nextRevision).toBe(expectedOutcome.nextRevision);
            }
          }
        },
        { numRuns: 25, batchSize: 37 },
      );
    });
  });
}

/**
 * The model-based property: for random append plans, each run on streams of its own
 * (`streamName(run, k)`) against a fresh model, `send` makes the plan's appends (checking each
 * outcome as it sees fit); then the log since the run began, and each stream, are the model's.
 */
export async function randomAppendsMatchTheModel(
  store: EventStore,
  streamName: (run: number, k: number) => string,
  send: (plan: Generator<PlannedAppend>, model: EventStoreModel) => Promise<void>,
  { numRuns, batchSize }: { numRuns: number; batchSize: number },
): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(appendOpsArbitrary(), async (ops) => {
      const thisRun = ++run;
      const runStart = await store.lastPosition();
      const model = new EventStoreModel();
      await send(
        materializeOps(ops, model, (k) => streamName(thisRun, k)),
        model,
      );
      const log = await collectAll(store, runStart, batchSize);
      expect(log.map((e) => [e.streamId, e.id, e.revision])).toEqual(
        model.log.map((e) => [e.streamId, e.id, e.revision]),
      );
      for (const [streamId, events] of model.streams) {
        expect((await store.readStream(streamId)).map((e) => e.id)).toEqual(events.map((e) => e.id));
      }
    }),
    { numRuns },
  );
}

/** One planned step of the property: a fresh append, or the exact retry of an earlier step. */
export type AppendOp =
  | { kind: 'append'; stream: number; count: number; expected: ExpectedRevision | 'head' }
  | { kind: 'retry'; pick: number };

export function appendOpsArbitrary(): fc.Arbitrary<AppendOp[]> {
  const expected = fc.oneof(
    fc.constant<'no_stream'>('no_stream'),
    fc.constant<'stream_exists'>('stream_exists'),
    fc.constant<'any'>('any'),
    fc.constant<'head'>('head'),
    fc.constant<'head'>('head'),
    fc.integer({ min: 0, max: 4 }),
  );
  const op = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant<'append'>('append'),
        stream: fc.nat(2),
        count: fc.integer({ min: 1, max: 3 }),
        expected,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant<'retry'>('retry'), pick: fc.nat() }) },
  );
  return fc.array(op, { minLength: 1, maxLength: 30 });
}

export interface PlannedAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

/**
 * Turns ops into concrete appends. 'head' reads the model's current head (call `model.apply` on
 * each planned append before asking for the next one); a retry repeats an earlier append exactly,
 * as a client would after losing the answer.
 */
export function* materializeOps(
  ops: AppendOp[],
  model: EventStoreModel,
  streamName: (k: number) => string,
): Generator<PlannedAppend> {
  const done: PlannedAppend[] = [];
  for (const op of ops) {
    let planned: PlannedAppend;
    if (op.kind === 'retry' && done.length > 0) {
      planned = done[op.pick % done.length];
    } else {
      const o = op.kind === 'append' ? op : { stream: 0, count: 1, expected: 'any' as const };
      const streamId = streamName(o.stream);
      planned = {
        streamId,
        events: Array.from({ length: o.count }, () => newEvent('P', { k: o.stream })),
        expected: o.expected === 'head' ? model.head(streamId) : o.expected,
      };
      // 'head' on a missing stream: there is no revision to expect
      if (typeof planned.expected === 'number' && planned.expected < 0) planned.expected = 'no_stream';
    }
    done.push(planned);
    yield planned;
  }
}

type ModelOutcome = { ok: true; idempotent: boolean; nextRevision: number } | { ok: false };

/** The port's semantics in a few lines: what the adapters are compared with. */
export class EventStoreModel {
  readonly streams = new Map<string, { id: string }[]>();
  readonly log: { streamId: string; id: string; revision: number }[] = [];

  head(streamId: string): number {
    return (this.streams.get(streamId)?.length ?? 0) - 1;
  }

  apply(streamId: string, events: NewEvent[], expected: ExpectedRevision): ModelOutcome {
    const stream = this.streams.get(streamId) ?? [];
    const head = stream.length - 1;
    const present = events.filter((e) => stream.some((s) => s.id === e.id)).length;
    if (present === events.length) return { ok: true, idempotent: true, nextRevision: head };
    if (present > 0) return { ok: false };
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' ? head === -1 : expected === 'stream_exists' ? head >= 0 : head === expected);
    if (!ok) return { ok: false };
    for (const e of events) {
      stream.push({ id: e.id });
      this.log.push({ streamId, id: e.id, revision: stream.length - 1 });
    }
    this.streams.set(streamId, stream);
    return { ok: true, idempotent: false, nextRevision: stream.length - 1 };
  }
}

/** What an append answers but whether it wrote (which an adapter may not tell). */
const at = ({ nextRevision, position }: AppendResult) => ({ nextRevision, position });

export function newEvent(type = 'Happened', data: unknown = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { correlationId: randomUUID(), at: new Date().toISOString() },
  };
}

export async function collectAll(
  store: EventStore,
  from: LogPosition | undefined,
  batchSize: number,
): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const batch of store.readAll(from, batchSize)) out.push(...batch);
  return out;
}

async function expectConflict(p: Promise<unknown>): Promise<void> {
  await expect(p).rejects.toBeInstanceOf(WrongExpectedRevisionError);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}
