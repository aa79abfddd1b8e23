import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemoryReadStore, WriteBehindStore, type Doc, type ReadStore, type Update } from '@evo/infra';
import { applyOnce, replaceIfNewer } from './write-once';
import { positionKey } from '@evo/domain';

type Op =
  | { kind: 'applyOnce'; id: string | number; pos: number; update: Update; guard?: string; upsert: boolean }
  | { kind: 'replaceIfNewer'; id: string | number; pos: number; fields: Record<string, unknown> };

const ids = fc.constantFrom<string | number>('a', 'b', 7);
const updates = fc.constantFrom<Update>(
  { $inc: { n: 1 } },
  { $set: { name: 'x', tags: ['t'] } },
  { $set: { name: 'y' }, $inc: { n: -1 } },
  { $addToSet: { list: 'v' } },
  { $pull: { list: 'v' } },
  { $setOnInsert: { created: true }, $set: { name: 'x' } },
  { $max: { at: '2026-03-02' }, $min: { first: 4 } },
  { $inc: { name: 1 } }, // refused on a document where name is a string
);
const ops: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('applyOnce' as const),
    id: ids,
    pos: fc.integer({ min: 1, max: 6 }),
    update: updates,
    guard: fc.option(fc.constantFrom('g', 'h'), { nil: undefined }),
    upsert: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('replaceIfNewer' as const),
    id: ids,
    pos: fc.integer({ min: 1, max: 6 }),
    fields: fc.record({ name: fc.constantFrom('p', 'q'), n: fc.integer({ min: 0, max: 2 }) }),
  }),
);
/** documents there before: guards written by someone else (a number, an array) or missing */
const seeds = fc.constantFrom<Doc[]>(
  [],
  [{ _id: 'a', n: 1, _pos: 3 }],
  [{ _id: 'b', _pos: [positionKey(1n), positionKey(9n)], name: 'z' }],
  [{ _id: 7, _pos_g: null, list: ['v', 'w'] }],
);

async function run(store: ReadStore, op: Op): Promise<unknown> {
  const coll = store.collection('docs');
  try {
    if (op.kind === 'applyOnce')
      return await applyOnce(coll, op.id, BigInt(op.pos), op.update, { upsert: op.upsert, guard: op.guard });
    return await replaceIfNewer(coll, { _id: op.id, ...op.fields, _pos: positionKey(BigInt(op.pos)) });
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
}

describe('guarded writes in one step (a projection batch) and call by call (any store)', () => {
  it('answer and write the same', async () => {
    await fc.assert(
      fc.asyncProperty(seeds, fc.array(ops, { maxLength: 12 }), async (seed, list) => {
        const direct = new MemoryReadStore();
        const batched = new MemoryReadStore();
        for (const store of [direct, batched]) for (const d of seed) await store.collection('docs').insertOne(d);
        const dump = (s: ReadStore) => s.collection('docs').find({}, { sort: { _id: 1 } });
        const before = await dump(batched);
        const unitOfWork = new WriteBehindStore(batched);
        for (const op of list) expect(await run(unitOfWork, op)).toEqual(await run(direct, op));
        // nothing reaches the store before the flush (no stored document changed in place)
        expect(await dump(batched)).toEqual(before);
        await unitOfWork.flush();
        expect(await dump(batched)).toEqual(await dump(direct));
        // key order too (MongoDB keeps it)
        expect(JSON.stringify(await dump(batched))).toBe(JSON.stringify(await dump(direct)));
      }),
      { numRuns: 300 },
    );
  });
});
