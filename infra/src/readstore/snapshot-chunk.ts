import type { Doc } from './port';

/*
 * One chunk of a collection's documents as a snapshot stores them: the documents grouped by their
 * field names (a "shape": one per distinct list, usually one per collection), each shape as
 * columns, one per field, and the strings in a table shared by the whole file.
 *
 * Why columns: v8.deserialize of the documents themselves reads every field name of every
 * document and builds each object field by field; it was most of a 1M-event start. Here the
 * strings come out of one v8.deserialize of a string array per chunk (a native loop), the numbers
 * and booleans out of typed arrays, and each document is made by a function generated for its
 * shape and column kinds that returns one object literal: the layout StoredShapes gives stored
 * documents (fields inline, in order).
 *
 * The string table: a chunk carries the strings it is the first to use; a column refers to any
 * string of its chunk or of an earlier one by its number in the file. Short strings (what
 * StringPool shares in a running store) seen among the last 65,536 to 131,072 distinct ones are
 * written once and loaded as one string shared by every document holding it, so a loaded store
 * shares its strings as a written one does, without a pass over its documents after the load.
 *
 * A column's kind says how its values are kept:
 *   s  strings                Uint32Array of string numbers
 *   S  strings or null        the same, NULL_STRING for null
 *   i  int32 numbers (not -0) Int32Array
 *   f  other numbers          Float64Array (keeps -0 and NaN)
 *   b  booleans               Uint8Array
 *   v  anything else          the values themselves (nested objects and arrays, Dates, bigint,
 *                             undefined, mixed types), left to v8.serialize
 * A document whose fields cannot be an object literal's ("__proto__", too many) is kept whole in
 * a shape without fields (`keys` null), also left to v8.serialize.
 */

export interface ChunkShape {
  /** the field names in order; null: the documents themselves are `columns[0]` */
  keys: string[] | null;
  /** one kind letter per field (see above) */
  kinds: string;
  columns: unknown[];
}

export interface DocChunk {
  /** documents in the chunk */
  n: number;
  /** the strings this chunk is the first to use, numbered on from the earlier chunks' */
  strings: string[];
  shapes: ChunkShape[];
  /** each document's shape, when there are several */
  shapeOf?: Uint8Array | Uint16Array;
}

const NULL_STRING = 0xffffffff;
/** field lists longer than this are kept whole (StoredShapes' own limit) */
const MAX_FIELDS = 64;

function kindOf(values: readonly unknown[]): string {
  let strings = 0;
  let nulls = 0;
  let ints = 0;
  let numbers = 0;
  let booleans = 0;
  for (const v of values) {
    if (typeof v === 'string') strings++;
    else if (v === null) nulls++;
    else if (typeof v === 'number') {
      numbers++;
      if ((v | 0) === v && !Object.is(v, -0)) ints++;
    } else if (typeof v === 'boolean') booleans++;
    else return 'v';
  }
  const n = values.length;
  if (strings === n) return 's';
  if (strings + nulls === n && strings > 0) return 'S';
  if (ints === n) return 'i';
  if (numbers === n) return 'f';
  if (booleans === n) return 'b';
  return 'v';
}

/**
 * The numbers of a file's strings while it is written: each new string gets the next number; a
 * short one seen among the recent distinct ones gets its number again (two generations, like
 * StringPool: bounded, so a snapshot of any size keeps at most 131,072 strings here).
 */
export class StringNumbers {
  private young = new Map<string, number>();
  private old = new Map<string, number>();
  private count = 0;
  /** the strings numbered since the last take() */
  private fresh: string[] = [];

  constructor(
    private readonly size = 65_536,
    private readonly maxLength = 64,
  ) {}

  of(value: string): number {
    if (value.length > this.maxLength) return this.add(value);
    const young = this.young.get(value);
    if (young !== undefined) return young;
    const known = this.old.get(value);
    if (known !== undefined) {
      if (this.young.size < this.size) this.young.set(value, known);
      return known;
    }
    if (this.young.size >= this.size) {
      this.old = this.young;
      this.young = new Map();
    }
    const id = this.add(value);
    this.young.set(value, id);
    return id;
  }

  private add(value: string): number {
    this.fresh.push(value);
    return this.count++;
  }

  /** the strings numbered since the last call, in number order */
  take(): string[] {
    const fresh = this.fresh;
    this.fresh = [];
    return fresh;
  }
}

/**
 * The chunk image of `docs` (any documents: values are taken as they are, nothing is copied);
 * `numbers`: the file's string numbers, shared by its chunks in the order they are written.
 */
export function encodeChunk(docs: readonly Doc[], numbers: StringNumbers): DocChunk {
  const stringId = (s: string) => numbers.of(s);
  const shapeIds = new Map<string, number>();
  const groups: Array<{ keys: string[] | null; rows: Doc[] }> = [];
  const shapeOf = new Uint16Array(docs.length);
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d];
    let keys: string[] | null = Object.keys(doc);
    // "__proto__" in a literal would set the prototype, not a field
    if (keys.length > MAX_FIELDS || keys.includes('__proto__')) keys = null;
    const signature = keys === null ? '' : `\u0001${keys.join('\u0000')}`;
    let id = shapeIds.get(signature);
    if (id === undefined) {
      id = groups.length;
      shapeIds.set(signature, id);
      groups.push({ keys, rows: [] });
    }
    groups[id].rows.push(doc);
    shapeOf[d] = id;
  }
  if (groups.length > 0xffff) throw new Error('trop de formes de documents dans un morceau');
  const shapes = groups.map(({ keys, rows }): ChunkShape => {
    if (keys === null) return { keys: null, kinds: '', columns: [rows] };
    let kinds = '';
    const columns = keys.map((key) => {
      const values = rows.map((row) => row[key]);
      const kind = kindOf(values);
      kinds += kind;
      switch (kind) {
        case 's':
        case 'S':
          return Uint32Array.from(values, (v) => (v === null ? NULL_STRING : stringId(v as string)));
        case 'i':
          return Int32Array.from(values as number[]);
        case 'f':
          return Float64Array.from(values as number[]);
        case 'b':
          return Uint8Array.from(values, (v) => (v ? 1 : 0));
        default:
          return values;
      }
    });
    return { keys, kinds, columns };
  });
  const chunk: DocChunk = { n: docs.length, strings: numbers.take(), shapes };
  if (shapes.length > 1) chunk.shapeOf = shapes.length <= 0xff ? Uint8Array.from(shapeOf) : shapeOf;
  return chunk;
}

type MakeDoc = (strings: readonly string[], columns: readonly unknown[], row: number) => Doc;

const ARRAY_OF_KIND: Record<string, abstract new (...args: never[]) => { length: number }> = {
  s: Uint32Array,
  S: Uint32Array,
  i: Int32Array,
  f: Float64Array,
  b: Uint8Array,
  v: Array,
};

/**
 * The functions that make a shape's documents, one per field list and column kinds (cached:
 * generated once, optimised by V8 once). Field names are written as JSON string literals, so no
 * name can be anything but a name in the generated source.
 */
export class ChunkDecoder {
  private readonly makers = new Map<string, MakeDoc>();
  /** every string of the chunks decoded so far, by number */
  private readonly strings: string[] = [];

  private makerFor(shape: ChunkShape): MakeDoc {
    if (shape.keys === null) return (_s, columns, row) => (columns[0] as Doc[])[row];
    const signature = `${shape.kinds}\u0001${shape.keys.join('\u0000')}`;
    let make = this.makers.get(signature);
    if (!make) {
      const fields = shape.keys.map((key, k) => {
        const name = JSON.stringify(key);
        const at = `c[${k}][r]`;
        switch (shape.kinds[k]) {
          case 's':
            return `${name}: s[${at}]`;
          case 'S':
            return `${name}: (x = ${at}) === ${NULL_STRING} ? null : s[x]`;
          case 'b':
            return `${name}: ${at} === 1`;
          default:
            return `${name}: ${at}`;
        }
      });
      make = new Function('s', 'c', 'r', `let x; return {${fields.join(', ')}};`) as MakeDoc;
      this.makers.set(signature, make);
    }
    return make;
  }

  /**
   * Checks that `chunk` is a chunk image and puts its documents into `out` from `at` on (`out`
   * made to its final length beforehand: no growing); answers where the next chunk's go. Throws
   * on any inconsistency. Chunks are decoded in the order they were encoded (the string numbers
   * run on).
   */
  decode(chunk: DocChunk, out: Doc[], at: number): number {
    const { n, shapes, shapeOf } = chunk;
    if (
      !Number.isInteger(n) ||
      n < 0 ||
      at + n > out.length ||
      !Array.isArray(chunk.strings) ||
      !Array.isArray(shapes) ||
      shapes.length === 0
    )
      throw new Error('morceau de documents mal formé');
    const strings = this.strings;
    for (const s of chunk.strings) {
      if (typeof s !== 'string') throw new Error('morceau de documents : chaîne illisible');
      strings.push(s);
    }
    const rows = new Uint32Array(shapes.length);
    if (shapes.length === 1) rows[0] = n;
    else {
      if (!(shapeOf instanceof Uint8Array || shapeOf instanceof Uint16Array) || shapeOf.length !== n)
        throw new Error('morceau de documents : formes illisibles');
      for (let i = 0; i < n; i++) {
        if (shapeOf[i] >= shapes.length) throw new Error('morceau de documents : forme inconnue');
        rows[shapeOf[i]]++;
      }
    }
    const makers = shapes.map((shape, s) => {
      const fields = shape.keys === null ? 1 : shape.keys.length;
      if (
        (shape.keys !== null && !(Array.isArray(shape.keys) && shape.keys.every((key) => typeof key === 'string'))) ||
        typeof shape.kinds !== 'string' ||
        !Array.isArray(shape.columns) ||
        shape.columns.length !== fields ||
        (shape.keys === null ? shape.kinds !== '' : shape.kinds.length !== fields)
      )
        throw new Error('morceau de documents : colonnes illisibles');
      shape.columns.forEach((column, k) => {
        const kind = shape.keys === null ? 'v' : shape.kinds[k];
        const type = Object.hasOwn(ARRAY_OF_KIND, kind) ? ARRAY_OF_KIND[kind] : undefined;
        if (!type || !(column instanceof type) || (column as { length: number }).length !== rows[s])
          throw new Error('morceau de documents : colonne illisible');
        if ((kind === 's' || kind === 'S') && !stringsWithin(column as Uint32Array, strings.length, kind === 'S'))
          throw new Error('morceau de documents : chaîne inconnue');
      });
      return this.makerFor(shape);
    });
    if (shapes.length === 1) {
      const make = makers[0];
      const columns = shapes[0].columns;
      for (let r = 0; r < n; r++) out[at + r] = make(strings, columns, r);
      return at + n;
    }
    rows.fill(0);
    for (let i = 0; i < n; i++) {
      const s = shapeOf![i];
      out[at + i] = makers[s](strings, shapes[s].columns, rows[s]++);
    }
    return at + n;
  }
}

function stringsWithin(column: Uint32Array, count: number, nullable: boolean): boolean {
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    if (v >= count && !(nullable && v === NULL_STRING)) return false;
  }
  return true;
}
