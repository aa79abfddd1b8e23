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

  /** a number for `value` without looking for it among the recent strings */
  add(value: string): number {
    this.fresh.push(value);
    return this.count++;
  }

  /** strings numbered so far */
  get numbered(): number {
    return this.count;
  }

  /** the strings numbered since the last call, in number order */
  take(): string[] {
    const fresh = this.fresh;
    this.fresh = [];
    return fresh;
  }
}

type Columns = (rows: readonly Doc[]) => unknown[][];

/**
 * A string column whose values were nearly all new (fewer than one in UNIQUE_RATIO found again:
 * ids, positions, dates) skips the search among recent strings for its next SKIP_CHUNKS chunks;
 * that search was most of a snapshot's writing time and finds nothing there.
 */
const UNIQUE_RATIO = 16;
const SKIP_CHUNKS = 15;

/**
 * Turns documents into chunk images, chunk after chunk of one file: the file's string numbers,
 * and a function per field list that reads each field of each document into its column (fields
 * read by name in generated code, not by a variable key).
 */
export class ChunkEncoder {
  readonly numbers: StringNumbers;
  private readonly columnReaders = new Map<string, { read: Columns; skips: Uint8Array }>();

  constructor(numbers = new StringNumbers()) {
    this.numbers = numbers;
  }

  private columnsOf(keys: string[]): { read: Columns; skips: Uint8Array } {
    const signature = keys.join('\u0000');
    let reader = this.columnReaders.get(signature);
    if (!reader) {
      const names = keys.map((key) => JSON.stringify(key));
      const read = new Function(
        'rows',
        `const n = rows.length; ${names.map((_, k) => `const c${k} = new Array(n);`).join(' ')}
        for (let r = 0; r < n; r++) { const d = rows[r]; ${names.map((name, k) => `c${k}[r] = d[${name}];`).join(' ')} }
        return [${names.map((_, k) => `c${k}`).join(', ')}];`,
      ) as Columns;
      // chunks left before a unique-looking string column searches recent strings again
      reader = { read, skips: new Uint8Array(keys.length) };
      this.columnReaders.set(signature, reader);
    }
    return reader;
  }

  /** The chunk image of `docs` (any documents: values are taken as they are, nothing is copied). */
  encode(docs: readonly Doc[]): DocChunk {
    const groups: Array<{ keys: string[] | null; rows: Doc[] }> = [];
    const shapeOf = new Uint16Array(docs.length);
    let last = -1;
    for (let d = 0; d < docs.length; d++) {
      const doc = docs[d];
      // most documents of a chunk have the fields of the one before
      let id = last >= 0 && hasKeys(doc, groups[last].keys) ? last : groups.findIndex((g) => hasKeys(doc, g.keys));
      if (id < 0) {
        let keys: string[] | null = Object.keys(doc);
        // "__proto__" in a literal would set the prototype, not a field
        if (keys.length > MAX_FIELDS || keys.includes('__proto__')) keys = null;
        id = keys === null ? groups.findIndex((g) => g.keys === null) : -1;
        if (id < 0) {
          id = groups.length;
          groups.push({ keys, rows: [] });
        }
      }
      groups[id].rows.push(doc);
      shapeOf[d] = id;
      last = id;
    }
    if (groups.length > 0xffff) throw new Error('trop de formes de documents dans un morceau');
    const shapes = groups.map(({ keys, rows }): ChunkShape => {
      if (keys === null) return { keys: null, kinds: '', columns: [rows] };
      let kinds = '';
      const { read, skips } = this.columnsOf(keys);
      const columns = read(rows).map((values, k) => {
        const kind = kindOf(values);
        kinds += kind;
        if (kind !== 's' && kind !== 'S') return this.column(kind, values);
        const before = this.numbers.numbered;
        const column = this.strings(values, skips[k] > 0);
        if (skips[k] > 0) skips[k]--;
        else if ((this.numbers.numbered - before) * UNIQUE_RATIO > values.length * (UNIQUE_RATIO - 1))
          skips[k] = SKIP_CHUNKS;
        return column;
      });
      return { keys, kinds, columns };
    });
    const chunk: DocChunk = { n: docs.length, strings: this.numbers.take(), shapes };
    if (shapes.length > 1) chunk.shapeOf = shapes.length <= 0xff ? Uint8Array.from(shapeOf) : shapeOf;
    return chunk;
  }

  /** a string column (nulls allowed); `unique`: its strings are numbered without a search */
  private strings(values: unknown[], unique: boolean): Uint32Array {
    const n = values.length;
    const column = new Uint32Array(n);
    const numbers = this.numbers;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      column[i] = v === null ? NULL_STRING : unique ? numbers.add(v as string) : numbers.of(v as string);
    }
    return column;
  }

  private column(kind: string, values: unknown[]): unknown {
    const n = values.length;
    switch (kind) {
      case 'i':
        return new Int32Array(values as number[]);
      case 'f':
        return new Float64Array(values as number[]);
      case 'b': {
        const column = new Uint8Array(n);
        for (let i = 0; i < n; i++) column[i] = values[i] ? 1 : 0;
        return column;
      }
      default:
        return values;
    }
  }
}

/** Are `keys` the document's own fields, in order (a plain object: for-in lists its own fields)? */
function hasKeys(doc: Doc, keys: string[] | null): boolean {
  if (keys === null) return false;
  let i = 0;
  for (const key in doc) if (key !== keys[i++]) return false;
  return i === keys.length;
}

/** makes the document of one row of a shape's columns */
type MakeDoc = (strings: readonly string[], columns: readonly unknown[], row: number) => Doc;
/** appends the documents of the first `rows` rows of a shape's columns (a chunk of one shape) */
type FillDocs = (strings: readonly string[], columns: readonly unknown[], rows: number, out: Doc[]) => void;

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
  private readonly makers = new Map<string, { make: MakeDoc; fill: FillDocs }>();
  /** every string of the chunks decoded so far, by number */
  private readonly strings: string[] = [];

  private makersFor(shape: ChunkShape): { make: MakeDoc; fill: FillDocs } {
    if (shape.keys === null)
      return {
        make: (_s, columns, row) => (columns[0] as Doc[])[row],
        fill: (_s, columns, rows, out) => {
          for (let r = 0; r < rows; r++) out.push((columns[0] as Doc[])[r]);
        },
      };
    const signature = `${shape.kinds}\u0001${shape.keys.join('\u0000')}`;
    let makers = this.makers.get(signature);
    if (!makers) {
      const fields = shape.keys.map((key, k) => {
        const name = JSON.stringify(key);
        const at = `c${k}[r]`;
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
      const literal = `{${fields.join(', ')}}`;
      const columns = `const ${shape.keys.map((_, k) => `c${k} = c[${k}]`).join(', ')}; let x;`;
      makers = {
        make: new Function('s', 'c', 'r', `${columns} return ${literal};`) as MakeDoc,
        // the loop in the generated code too: the columns in locals, no call per document
        fill: new Function(
          's',
          'c',
          'n',
          'out',
          `${columns} for (let r = 0; r < n; r++) out.push(${literal});`,
        ) as FillDocs,
      };
      this.makers.set(signature, makers);
    }
    return makers;
  }

  /**
   * Checks that `chunk` is a chunk image and appends its documents to `out`; throws on any
   * inconsistency. Chunks are decoded in the order they were encoded (the string numbers run on).
   */
  decode(chunk: DocChunk, out: Doc[]): void {
    const { n, shapes, shapeOf } = chunk;
    if (!Number.isInteger(n) || n < 0 || !Array.isArray(chunk.strings) || !Array.isArray(shapes) || shapes.length === 0)
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
      return this.makersFor(shape);
    });
    if (shapes.length === 1) {
      makers[0].fill(strings, shapes[0].columns, n, out);
      return;
    }
    rows.fill(0);
    for (let i = 0; i < n; i++) {
      const s = shapeOf![i];
      out.push(makers[s].make(strings, shapes[s].columns, rows[s]++));
    }
  }
}

function stringsWithin(column: Uint32Array, count: number, nullable: boolean): boolean {
  for (let i = 0; i < column.length; i++) {
    const v = column[i];
    if (v >= count && !(nullable && v === NULL_STRING)) return false;
  }
  return true;
}
