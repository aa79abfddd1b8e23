/**
 * Small persistent (immutable, path-copying) maps for decider states that grow with a wallet's
 * history: `set`/`remove` copy at most DEPTH nodes of 32 slots, so folding a wallet that received
 * 100 000 gifts stays linear instead of copying a whole object at every event. The previous
 * version is never changed, so `evolve` stays pure.
 */
const BITS = 5;
const WIDTH = 1 << BITS;
const DEPTH = 7;
/** keys are integers in [0, 2^35) */
export const MAX_ID_KEY = 2 ** (BITS * DEPTH) - 1;
const DIVISORS = Array.from({ length: DEPTH }, (_, level) => 2 ** (BITS * (DEPTH - 1 - level)));

type Node = ReadonlyArray<unknown>;

export interface IdMap<V> {
  readonly root: Node | undefined;
  readonly size: number;
  /** phantom, for typing only */
  readonly _v?: V;
}

const slotOf = (key: number, level: number) => Math.floor(key / DIVISORS[level]) % WIDTH;
const ABSENT: unique symbol = Symbol('absent');

function checkKey(key: number) {
  if (!Number.isInteger(key) || key < 0 || key > MAX_ID_KEY) throw new RangeError(`Clé hors limites : ${key}`);
}

export const emptyIdMap = <V>(): IdMap<V> => ({ root: undefined, size: 0 });

export function idMapGet<V>(map: IdMap<V>, key: number): V | undefined {
  if (!Number.isInteger(key) || key < 0 || key > MAX_ID_KEY) return undefined;
  let node: Node | undefined = map.root;
  for (let level = 0; level < DEPTH - 1 && node; level++) node = node[slotOf(key, level)] as Node | undefined;
  if (!node) return undefined;
  const v = node[slotOf(key, DEPTH - 1)];
  return v === undefined || v === ABSENT ? undefined : (v as V);
}

export const idMapHas = <V>(map: IdMap<V>, key: number) => idMapGet(map, key) !== undefined;

function write(node: Node | undefined, key: number, level: number, value: unknown): { node: Node; had: boolean } {
  const copy = node ? node.slice() : new Array<unknown>(WIDTH);
  const slot = slotOf(key, level);
  if (level === DEPTH - 1) {
    const had = copy[slot] !== undefined && copy[slot] !== ABSENT;
    copy[slot] = value;
    return { node: copy, had };
  }
  const child = write(copy[slot] as Node | undefined, key, level + 1, value);
  copy[slot] = child.node;
  return { node: copy, had: child.had };
}

/** a new map with `key` set to `value` (values must not be undefined) */
export function idMapSet<V>(map: IdMap<V>, key: number, value: V): IdMap<V> {
  checkKey(key);
  if (value === undefined) throw new TypeError('IdMap values cannot be undefined');
  const r = write(map.root, key, 0, value);
  return { root: r.node, size: map.size + (r.had ? 0 : 1) };
}

/** a new map without `key` (the same map when absent) */
export function idMapRemove<V>(map: IdMap<V>, key: number): IdMap<V> {
  if (!idMapHas(map, key)) return map;
  const r = write(map.root, key, 0, ABSENT);
  return { root: r.node, size: map.size - 1 };
}

/** entries in increasing key order */
export function* idMapEntries<V>(map: IdMap<V>): Generator<[number, V]> {
  function* walk(node: Node, level: number, prefix: number): Generator<[number, V]> {
    for (let slot = 0; slot < WIDTH; slot++) {
      const child = node[slot];
      if (child === undefined || child === ABSENT) continue;
      const key = prefix + slot * DIVISORS[level];
      if (level === DEPTH - 1) yield [key, child as V];
      else yield* walk(child as Node, level + 1, key);
    }
  }
  if (map.root) yield* walk(map.root, 0, 0);
}

/** FNV-1a, 32 bits: spreads string keys over an IdMap (collisions share a bucket). */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Persistent map keyed by strings: an IdMap of small buckets. */
export interface KeyMap<V> {
  readonly buckets: IdMap<ReadonlyArray<readonly [string, V]>>;
  readonly size: number;
}

export const emptyKeyMap = <V>(): KeyMap<V> => ({ buckets: emptyIdMap(), size: 0 });

export function keyMapGet<V>(map: KeyMap<V>, key: string): V | undefined {
  return idMapGet(map.buckets, hash32(key))?.find(([k]) => k === key)?.[1];
}

export function keyMapSet<V>(map: KeyMap<V>, key: string, value: V): KeyMap<V> {
  const h = hash32(key);
  const bucket = idMapGet(map.buckets, h) ?? [];
  const had = bucket.some(([k]) => k === key);
  const next = [...bucket.filter(([k]) => k !== key), [key, value] as const];
  return { buckets: idMapSet(map.buckets, h, next), size: map.size + (had ? 0 : 1) };
}
