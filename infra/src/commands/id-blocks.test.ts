import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sequenceStream, type IdAssigned } from '@evo/domain';
import { EventStoreDbEventStore } from '../eventstore/eventstoredb-event-store';
import type { EventStore } from '../eventstore/port';
import { SqliteEventStore } from '../eventstore/sqlite-event-store';
import { FakeEsdbClient } from '../eventstore/testing/fake-esdb-client';
import { startScript } from '../testing/run-script';
import { systemContext, toNewEvents } from './command-handler';
import { IdBlocks, ID_BLOCK_SIZES } from './id-blocks';

const here = dirname(fileURLToPath(import.meta.url));
const ctx = () => systemContext();

const dirs: string[] = [];
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evo-ids-'));
  dirs.push(dir);
  return join(dir, 'events.sqlite');
}
const track = <S extends { close(): Promise<void> }>(s: S): S => (open.push(s), s);

/**
 * Each way of sharing one log: `open()` gives a writer's own handle on it (another connection to
 * the SQLite file, as another process has; the same store object where there is only one).
 */
const logs: Array<{ name: string; make: () => { open: () => EventStore } }> = [
  {
    name: 'SQLite file, one connection per writer',
    make: () => {
      const file = tempFile();
      return { open: () => track(new SqliteEventStore(file)) };
    },
  },
  {
    name: 'SQLite in memory',
    make: () => {
      const store = track(new SqliteEventStore(':memory:'));
      return { open: () => store };
    },
  },
  {
    name: 'EventStoreDB adapter (in-memory fake server)',
    make: () => {
      const store = track(new EventStoreDbEventStore(new FakeEsdbClient().asClient(), { retryInitialMs: 10 }));
      return { open: () => store };
    },
  },
];

/** Draws `n` ids at once; answers them in the order they were given. */
async function drawConcurrently(ids: IdBlocks, sequence: string, n: number): Promise<number[]> {
  const given: number[] = [];
  await Promise.all(Array.from({ length: n }, () => ids.next(sequence, ctx()).then((id) => given.push(id))));
  return given;
}

const isIncreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]);

async function assignedValues(store: EventStore, sequence: string): Promise<number[]> {
  return (await store.readStream(sequenceStream(sequence))).map((e) => (e as unknown as IdAssigned).data.value);
}

describe.each(logs)('IdBlocks on $name', ({ make }) => {
  it('gives distinct increasing ids to many concurrent callers, one append per block', async () => {
    const log = make();
    const store = log.open();
    const ids = new IdBlocks(store, { blockSize: () => 64 });
    const given = await drawConcurrently(ids, 'comment', 300);
    expect(isIncreasing(given)).toBe(true);
    // one allocator, fresh log: exactly 1..300, from 5 blocks
    expect(given).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(await assignedValues(store, 'comment')).toEqual([64, 128, 192, 256, 320]);
  });

  it('never gives one id twice across writers drawing at once, each writer increasing (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ writer: fc.nat(2), n: fc.integer({ min: 1, max: 40 }) }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 9 }),
        async (bursts, block) => {
          const log = make();
          const writers = [0, 1, 2].map(() => new IdBlocks(log.open(), { blockSize: () => block }));
          const byWriter: number[][] = [[], [], []];
          // every burst at once, writers interleaved
          await Promise.all(
            bursts.map(async ({ writer, n }) =>
              byWriter[writer].push(...(await drawConcurrently(writers[writer], 'seq', n))),
            ),
          );
          const all = byWriter.flat();
          expect(new Set(all).size).toBe(all.length);
          expect(all.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
          for (const w of byWriter) expect(isIncreasing([...w])).toBe(true);
          // every id given lies in a block the log records
          expect(Math.max(...all)).toBeLessThanOrEqual(Math.max(...(await assignedValues(log.open(), 'seq'))));
          while (open.length) await open.pop()!.close();
        },
      ),
      { numRuns: 15 },
    );
  });

  it('after a crash (allocator dropped with ids left): a gap, never a duplicate', async () => {
    const log = make();
    const first = new IdBlocks(log.open(), { blockSize: () => 10 });
    const before = [
      await first.next('video', ctx()),
      await first.next('video', ctx()),
      await first.next('video', ctx()),
    ];
    expect(before).toEqual([1, 2, 3]);
    // `first` is gone (4..10 never given); the restarted process reserves after 10
    const restarted = new IdBlocks(log.open(), { blockSize: () => 10 });
    expect(await restarted.next('video', ctx())).toBe(11);
    expect(await drawConcurrently(restarted, 'video', 12)).toEqual(Array.from({ length: 12 }, (_, i) => 12 + i));
  });

  it('continues a sequence written one id per event, and an old one-id writer continues after the blocks', async () => {
    const log = make();
    const store = log.open();
    const streamId = sequenceStream('message');
    // as they were written before blocks (one append per id): IdAssigned 1, 2, 3 (a value per event)
    for (let value = 1; value <= 3; value++)
      await store.append(
        streamId,
        toNewEvents([{ type: 'IdAssigned', data: { value } }], streamId, ctx()),
        value === 1 ? 'no_stream' : value - 2,
      );
    const ids = new IdBlocks(store, { blockSize: () => 64 });
    expect(await ids.next('message', ctx())).toBe(4);
    // a writer still drawing one id per append (block size 1, the old behaviour) goes above the block
    const oneByOne = new IdBlocks(log.open(), { blockSize: () => 1 });
    expect(await oneByOne.next('message', ctx())).toBe(68);
    expect(await ids.next('message', ctx())).toBe(5);
    expect(await assignedValues(store, 'message')).toEqual([1, 2, 3, 67, 68]);
  });

  it('gives an id above `above`, from its own block when it can, else from a new block above every other', async () => {
    const log = make();
    const a = new IdBlocks(log.open(), { blockSize: () => 64 });
    const b = new IdBlocks(log.open(), { blockSize: () => 64 });
    expect(await a.next('message', ctx())).toBe(1); // a holds 1..64
    expect(await b.next('message', ctx())).toBe(65); // b holds 65..128
    // within a's block: skip to 11 (2..10 become a gap)
    expect(await a.next('message', ctx(), { above: 10 })).toBe(11);
    // above b's id: a's block cannot, a reserves above everything reserved (129..192)
    expect(await a.next('message', ctx(), { above: 65 })).toBe(129);
    expect(await b.next('message', ctx())).toBe(66);
    // above anything reserved so far: the block starts above it
    expect(await b.next('message', ctx(), { above: 1000 })).toBe(1001);
  });
});

describe('IdBlocks', () => {
  it('reserves by the block size of each sequence (frequent writes 64, rare ones fewer)', async () => {
    const store = track(new SqliteEventStore(':memory:'));
    const ids = new IdBlocks(store);
    for (const sequence of ['comment', 'message', 'coin-transaction', 'video', 'report', 'other'])
      await ids.next(sequence, ctx());
    expect(await assignedValues(store, 'comment')).toEqual([ID_BLOCK_SIZES.comment]);
    expect(ID_BLOCK_SIZES).toMatchObject({ comment: 64, message: 64, 'coin-transaction': 64, video: 8, report: 4 });
    expect(await assignedValues(store, 'video')).toEqual([8]);
    expect(await assignedValues(store, 'report')).toEqual([4]);
    expect(await assignedValues(store, 'other')).toEqual([16]);
  });

  it('never gives one id twice across two processes drawing from one SQLite file, nor after one is killed', async () => {
    const file = tempFile();
    const script = join(here, 'testing', 'draw-ids.ts');
    const child = (count: number) => {
      const drawing = startScript(script, [file, 'comment', String(count), '8', '5']);
      return { ...drawing, ids: () => drawing.out().split('\n').filter(Boolean).map(Number) };
    };
    // a process killed while drawing (its block's unused ids are lost, nothing it gave is given again)
    const killed = child(0);
    const store = track(new SqliteEventStore(file));
    const here_ = new IdBlocks(store, { blockSize: () => 5 });
    const mine: number[] = [];
    const deadline = Date.now() + 20_000;
    while (killed.ids().length < 50 && Date.now() < deadline)
      mine.push(...(await drawConcurrently(here_, 'comment', 8)));
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(killed.ids().length, killed.err()).toBeGreaterThanOrEqual(50);
    // a second process drawing its 400 ids while this one draws
    const other = child(400);
    while (other.child.exitCode === null) {
      mine.push(...(await drawConcurrently(here_, 'comment', 8)));
      await new Promise((r) => setTimeout(r, 1));
    }
    await other.exited;
    expect(other.ids(), other.err()).toHaveLength(400);
    const all = [...mine, ...killed.ids(), ...other.ids()];
    expect(new Set(all).size).toBe(all.length);
    expect(isIncreasing(mine)).toBe(true);
    expect(isIncreasing(other.ids())).toBe(true);
  }, 60_000);
});
