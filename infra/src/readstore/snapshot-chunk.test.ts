import { describe, expect, it } from 'vitest';
import { deserialize, serialize } from 'node:v8';
import { ChunkDecoder, ChunkEncoder, StringNumbers, type DocChunk } from './snapshot-chunk';
import type { Doc } from './port';

/** Exactly the same value: Object.is on leaves (-0, NaN), same own keys in the same order, same prototypes. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => same((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k]));
}

/** encode in chunks of `size`, through v8.serialize as the file does, and decode */
function roundTrip(docs: Doc[], size: number): { out: Doc[]; chunks: DocChunk[] } {
  const encoder = new ChunkEncoder(new StringNumbers(64));
  const chunks: DocChunk[] = [];
  for (let i = 0; i < docs.length; i += size)
    chunks.push(deserialize(serialize(encoder.encode(docs.slice(i, i + size)))) as DocChunk);
  const decoder = new ChunkDecoder();
  const out: Doc[] = [];
  for (const chunk of chunks) decoder.decode(chunk, out);
  return { out, chunks };
}

/** a seeded generator: the same documents at every run */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
}

const values: unknown[] = [
  'texte',
  '',
  'émoji 🌹 et accents',
  'x'.repeat(100),
  null,
  undefined,
  0,
  -0,
  7,
  -2147483648,
  2147483647,
  2147483648,
  0.1 + 0.2,
  NaN,
  Infinity,
  true,
  false,
  12345678901234567890n,
  new Date(Date.UTC(2026, 0, 2)),
  [1, 'a', null],
  { nested: { deeper: ['x'] } },
];

describe('snapshot chunks (documents as columns)', () => {
  it('give back every document exactly: values of every kind, mixed columns, several shapes, order kept', () => {
    const rnd = random(42);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
    const docs: Doc[] = [];
    for (let i = 0; i < 3000; i++) {
      const doc: Doc = { _id: i % 3 ? `d${i}` : i };
      // a few shapes, each field of a shape taking values of one kind or of several
      const shape = Math.floor(rnd() * 4);
      doc.kind = pick(['like', 'comment', 'follow']);
      if (shape > 0) doc.score = shape === 1 ? Math.floor(rnd() * 1000) : rnd();
      if (shape > 1) doc.maybe = rnd() < 0.5 ? null : `m${Math.floor(rnd() * 50)}`;
      if (shape > 2) doc.any = pick(values);
      doc.flag = rnd() < 0.5;
      docs.push(doc);
    }
    for (const size of [1, 7, 1000]) {
      const { out } = roundTrip(docs, size);
      for (let i = 0; i < docs.length; i++) if (!same(out[i], docs[i])) expect(out[i]).toEqual(docs[i]);
    }
  });

  it('a column of one value kind is kept as such (strings, nullable strings, int32, doubles, booleans)', () => {
    const docs: Doc[] = Array.from({ length: 10 }, (_, i) => ({
      _id: `id${i}`,
      s: i % 2 ? 'a' : 'b',
      n: i % 3 ? 'x' : null,
      i: i - 5,
      f: i / 3,
      z: i === 4 ? -0 : i,
      b: i % 2 === 0,
      v: i % 2 ? 1 : 'un',
    }));
    const chunk = new ChunkEncoder().encode(docs);
    expect(chunk.shapes).toHaveLength(1);
    expect(chunk.shapes[0].kinds).toBe('ssSiffbv');
    const { out } = roundTrip(docs, 10);
    expect(Object.is(out[4].z, -0)).toBe(true);
    for (let i = 0; i < docs.length; i++) expect(same(out[i], docs[i])).toBe(true);
  });

  it('documents no object literal can make are kept whole', () => {
    const proto = JSON.parse('{"_id": "p", "__proto__": {"x": 1}, "y": 2}') as Doc;
    const wide: Doc = { _id: 'wide' };
    for (let k = 0; k < 70; k++) wide[`f${k}`] = k;
    const docs: Doc[] = [{ _id: 'plain', a: 1 }, proto, wide, { _id: 'plain2', a: 2 }];
    const chunk = new ChunkEncoder().encode(docs);
    expect(chunk.shapes.filter((s) => s.keys === null)).toHaveLength(1);
    const { out } = roundTrip(docs, 5);
    expect(Object.prototype.hasOwnProperty.call(out[1], '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(out[1])).toBe(Object.prototype);
    for (let i = 0; i < docs.length; i++) expect(same(out[i], docs[i])).toBe(true);
  });

  it('a file carries a short string once while it is among the recent ones, a long one every time', () => {
    const long = 'l'.repeat(65);
    const docs: Doc[] = Array.from({ length: 200 }, (_, i) => ({
      _id: i,
      member: `membre${i % 5}`,
      text: long,
      unique: `u${i}`,
    }));
    const { chunks } = roundTrip(docs, 10);
    const carried = chunks.flatMap((c) => c.strings);
    expect(carried.filter((s) => s === 'membre3')).toHaveLength(1);
    expect(carried.filter((s) => s === long)).toHaveLength(200);
    // bounded: two generations of 64 (this test's size) distinct strings, then a string comes again
    const many: Doc[] = Array.from({ length: 400 }, (_, i) => ({
      _id: i,
      a: i === 0 || i === 399 ? 'again' : `s${i}`,
    }));
    const again = roundTrip(many, 50).chunks.flatMap((c) => c.strings);
    expect(again.filter((s) => s === 'again')).toHaveLength(2);
  });

  it('refuses a chunk that does not hold together', () => {
    const docs: Doc[] = [
      { _id: 'a', t: 'x', n: 1 },
      { _id: 'b', t: 'y', n: 2 },
      { _id: 'c', other: true },
    ];
    const sound = () => deserialize(serialize(new ChunkEncoder().encode(docs))) as DocChunk;
    const decode = (chunk: DocChunk) => {
      const out: Doc[] = [];
      new ChunkDecoder().decode(chunk, out);
      return out.length;
    };
    expect(decode(sound())).toBe(3);
    const damaged: Array<(c: DocChunk) => void> = [
      (c) => (c.n = 4),
      (c) => ((c.shapes[0].columns[1] as Uint32Array)[0] = 99), // a string number beyond the table
      (c) => (c.shapes[0].columns[2] = new Float64Array([1, 2])), // not the kind it says
      (c) => (c.shapes[0].columns[2] = new Int32Array([1])), // a row missing
      (c) => (c.shapes[0].kinds = 'ssq'),
      (c) => (c.shapeOf![2] = 5),
      (c) => c.shapes.pop(),
      (c) => (c.strings = [1 as unknown as string]),
    ];
    for (const change of damaged) {
      const chunk = sound();
      change(chunk);
      expect(() => decode(chunk)).toThrow();
    }
  });
});
