import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore, SqliteReadStore, type ReadStore } from '@evo/infra';
import { ProjectionRunner } from './runner';
import type { Projector } from './projector';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/**
 * A runner on a log of its own whose one projector notes, for each event, the read-store
 * transaction it was applied in (the store counts the transactions it is asked for), and holds
 * an event's application while `gate` is set.
 */
async function counted(liveBatchEveryMs: number) {
  const events = new SqliteEventStore(':memory:');
  const read = SqliteReadStore.temporary();
  open.push(events, read);
  let transactions = 0;
  const store: ReadStore = Object.assign(Object.create(read) as SqliteReadStore, {
    withTransaction: <R>(fn: (tx: ReadStore) => Promise<R>) => {
      transactions++;
      return read.withTransaction(fn);
    },
  });
  const appliedIn = new Map<string, number>();
  const held: { gate?: Promise<void>; waiting: Set<string> } = { waiting: new Set() };
  const probe: Projector = {
    name: 'probe',
    collections: ['probe'],
    eventTypes: ['CoinsAdded'],
    async project(event, tx) {
      if (held.gate) held.waiting.add(event.id);
      await held.gate;
      appliedIn.set(event.id, transactions);
      await tx.collection('probe').insertOne({ _id: event.id });
    },
  };
  const runner = new ProjectionRunner({ events, read: store, projectors: [probe], liveBatchEveryMs });
  open.push({ close: () => runner.stop() });
  await runner.start();
  const append = async () => (await appendMany(1))[0];
  /** one append of `n` events (one command's): their ids, and the position of the last */
  const appendMany = async (n: number) => {
    const ids = Array.from({ length: n }, () => randomUUID());
    const { position } = await events.append(
      'wallet-probe',
      ids.map((id) => ({
        id,
        type: 'CoinsAdded',
        data: {},
        metadata: { correlationId: id, at: new Date().toISOString() },
      })),
      'any',
    );
    return ids.map((id) => ({ id, position }));
  };
  return { runner, append, appendMany, appliedIn, held };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('live batches', () => {
  it('apply events that come one at a time at once, each in its transaction', async () => {
    const { runner, append, appliedIn } = await counted(60_000);
    const applied: string[] = [];
    for (let i = 0; i < 3; i++) {
      const e = await append();
      // far below the span: no wait for it
      expect(await runner.waitFor(e.position, 5_000)).toBe(true);
      applied.push(e.id);
    }
    expect(new Set(applied.map((id) => appliedIn.get(id))).size).toBe(3);
  });

  it('once several commands come at once, put the events of the next span in one transaction', async () => {
    const { runner, append, appliedIn, held } = await counted(1500);
    // three events queue while the first is being applied: the next batch holds the three
    let release!: () => void;
    held.gate = new Promise((r) => (release = r));
    const first = await append();
    await expect.poll(() => held.waiting.has(first.id)).toBe(true);
    const burst = [await append(), await append(), await append()];
    release();
    held.gate = undefined;
    expect(await runner.waitFor(burst[2].position, 10_000)).toBe(true);
    expect(new Set(burst.map((e) => appliedIn.get(e.id))).size).toBe(1);
    expect(appliedIn.get(burst[0].id)).toBeGreaterThan(appliedIn.get(first.id)!);
    // each a while after the one before: time enough for a runner without a span to apply it alone
    const next = [];
    for (let i = 0; i < 3; i++) {
      next.push(await append());
      await pause(100);
    }
    expect(await runner.waitFor(next[2].position, 10_000)).toBe(true);
    expect(new Set(next.map((e) => appliedIn.get(e.id))).size).toBe(1);
  });

  it("apply the events of one append (one command's) in one transaction: nobody reads half of a command", async () => {
    const { runner, appendMany, appliedIn } = await counted(20);
    for (const n of [2, 3, 5, 2]) {
      const written = await appendMany(n);
      expect(await runner.waitFor(written[0].position, 5_000)).toBe(true);
      expect(new Set(written.map((e) => appliedIn.get(e.id))).size).toBe(1);
    }
  });
});
