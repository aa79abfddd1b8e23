import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryReadStore } from './memory-read-store';
import { WriteBehindStore } from './write-behind';
import type { Doc, ReadCollection } from './port';

/*
 * Differential: the same operations on a MemoryReadStore and on a WriteBehindStore over another
 * one give the same answers, and once flushed the same documents.
 */

const id = fc.constantFrom<string | number>('a', 'b', 'c', 1, 2);
const pos = fc.constantFrom('p1', 'p2', 'p3');
const field = fc.constantFrom('x', 'y');
const value = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('u', 'v'), fc.constant(null));
const guard = (p: string) => ({ $or: [{ _pos: { $exists: false } }, { _pos: { $lt: p } }] });

type Op =
  | { kind: 'findOne'; id: string | number; projection: boolean }
  | { kind: 'findGuarded'; id: string | number; pos: string }
  | { kind: 'findIn'; ids: Array<string | number> }
  | { kind: 'findBy'; field: string; value: unknown; projection: boolean }
  | { kind: 'applyOnce'; id: string | number; pos: string; field: string; inc: number; upsert: boolean }
  | { kind: 'addToSet'; id: string | number; value: string }
  | { kind: 'maxString'; id: string | number; value: string }
  | { kind: 'replace'; id: string | number; field: string; value: unknown; upsert: boolean }
  | { kind: 'insert'; id: string | number; field: string; value: unknown }
  | { kind: 'delete'; id: string | number; pos?: string }
  | { kind: 'updateMany'; field: string; value: unknown }
  | { kind: 'count'; field: string; value: unknown };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('findOne' as const), id, projection: fc.boolean() }),
  fc.record({ kind: fc.constant('findGuarded' as const), id, pos }),
  fc.record({ kind: fc.constant('findIn' as const), ids: fc.array(id, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('findBy' as const), field, value, projection: fc.boolean() }),
  fc.record({
    kind: fc.constant('applyOnce' as const),
    id,
    pos,
    field,
    inc: fc.integer({ min: -2, max: 2 }),
    upsert: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('addToSet' as const), id, value: fc.constantFrom('m', 'n') }),
  fc.record({ kind: fc.constant('maxString' as const), id, value: fc.constantFrom('2025-01', '2025-02') }),
  fc.record({ kind: fc.constant('replace' as const), id, field, value, upsert: fc.boolean() }),
  fc.record({ kind: fc.constant('insert' as const), id, field, value }),
  fc.record({ kind: fc.constant('delete' as const), id, pos: fc.option(pos, { nil: undefined }) }),
  fc.record({ kind: fc.constant('updateMany' as const), field, value }),
  fc.record({ kind: fc.constant('count' as const), field, value }),
);

const byId = (docs: Doc[]) => [...docs].sort((a, b) => String(a._id).localeCompare(String(b._id)));

async function run(c: ReadCollection, o: Op): Promise<unknown> {
  try {
    switch (o.kind) {
      case 'findOne':
        return await c.findOne({ _id: o.id }, o.projection ? { projection: { x: 1 } } : {});
      case 'findGuarded':
        return await c.findOne({ _id: o.id, ...guard(o.pos) });
      case 'findIn':
        return byId(await c.find({ _id: { $in: o.ids } }));
      case 'findBy':
        return byId(await c.find({ [o.field]: o.value }, o.projection ? { projection: { y: 1 } } : {}));
      case 'applyOnce':
        return await c.updateOne(
          { _id: o.id, ...guard(o.pos) },
          { $set: { _pos: o.pos }, $inc: { [o.field]: o.inc }, $setOnInsert: { created: true } },
          { upsert: o.upsert },
        );
      case 'addToSet':
        return await c.updateOne({ _id: o.id }, { $addToSet: { tags: o.value } }, { upsert: true });
      case 'maxString':
        return await c.updateOne({ _id: o.id }, { $max: { at: o.value } });
      case 'replace':
        return await c.replaceOne({ _id: o.id }, { _id: o.id, [o.field]: o.value }, { upsert: o.upsert });
      case 'insert':
        return await c.insertOne({ _id: o.id, [o.field]: o.value });
      case 'delete':
        return await c.deleteOne(o.pos ? { _id: o.id, ...guard(o.pos) } : { _id: o.id });
      case 'updateMany':
        return await c.updateMany({ [o.field]: o.value }, { $set: { touched: true } });
      case 'count':
        return await c.countDocuments({ [o.field]: o.value });
    }
  } catch (e) {
    return { error: (e as Error).name };
  }
}

describe('WriteBehindStore', () => {
  it('answers like the store it writes to, and leaves the same documents', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), fc.integer({ min: 1, max: 30 }), async (ops, flushEvery) => {
        const direct = new MemoryReadStore();
        const inner = new MemoryReadStore();
        await direct.collection('c').createIndex({ key: { x: 1 } });
        await inner.collection('c').createIndex({ key: { x: 1 } });
        await inner.withTransaction(async (tx) => {
          let work = new WriteBehindStore(tx);
          for (let i = 0; i < ops.length; i++) {
            const expected = await run(direct.collection('c'), ops[i]);
            const actual = await run(work.collection('c'), ops[i]);
            expect(actual, JSON.stringify(ops.slice(0, i + 1))).toEqual(expected);
            if ((i + 1) % flushEvery === 0) {
              await work.flush();
              work = new WriteBehindStore(tx);
            }
          }
          await work.flush();
        });
        expect(byId(await inner.collection('c').find({}))).toEqual(byId(await direct.collection('c').find({})));
      }),
      { numRuns: 400 },
    );
  });

  it('writes each changed document once, at the flush', async () => {
    const inner = new MemoryReadStore();
    const work = new WriteBehindStore(inner);
    const c = work.collection('counters');
    for (let i = 0; i < 10; i++) await c.updateOne({ _id: 'k' }, { $inc: { n: 1 } }, { upsert: true });
    expect(await c.findOne({ _id: 'k' })).toEqual({ _id: 'k', n: 10 });
    expect(await inner.collection('counters').findOne({ _id: 'k' })).toBeNull();
    await work.flush();
    expect(await inner.collection('counters').findOne({ _id: 'k' })).toEqual({ _id: 'k', n: 10 });
  });
});
