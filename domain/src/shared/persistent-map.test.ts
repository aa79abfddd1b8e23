import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  emptyIdMap,
  emptyKeyMap,
  idMapEntries,
  idMapGet,
  idMapRemove,
  idMapSet,
  keyMapGet,
  keyMapSet,
  MAX_ID_KEY,
} from './persistent-map';

describe('persistent maps', () => {
  it('behave like a Map and never change a previous version', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: MAX_ID_KEY }), fc.integer())), (ops) => {
        let m = emptyIdMap<number>();
        const model = new Map<number, number>();
        const versions: Array<[typeof m, Map<number, number>]> = [];
        for (const [set, k, v] of ops) {
          if (set) {
            m = idMapSet(m, k, v);
            model.set(k, v);
          } else {
            m = idMapRemove(m, k);
            model.delete(k);
          }
          versions.push([m, new Map(model)]);
        }
        for (const [version, snapshot] of versions) {
          expect(version.size).toBe(snapshot.size);
          expect([...idMapEntries(version)]).toEqual([...snapshot.entries()].sort((a, b) => a[0] - b[0]));
          for (const [k, v] of snapshot) expect(idMapGet(version, k)).toBe(v);
        }
      }),
    );
  });
  it('keys strings, colliding or not', () => {
    let m = emptyKeyMap<number>();
    for (let i = 0; i < 2000; i++) m = keyMapSet(m, `clé-${i}`, i);
    m = keyMapSet(m, 'clé-5', 55);
    expect(m.size).toBe(2000);
    expect(keyMapGet(m, 'clé-5')).toBe(55);
    expect(keyMapGet(m, 'clé-1999')).toBe(1999);
    expect(keyMapGet(m, 'absente')).toBeUndefined();
  });
  it('refuses keys out of range', () => {
    expect(() => idMapSet(emptyIdMap(), -1, 1)).toThrow(RangeError);
    expect(() => idMapSet(emptyIdMap(), 1.5, 1)).toThrow(RangeError);
    expect(idMapGet(emptyIdMap(), -1)).toBeUndefined();
  });
});
