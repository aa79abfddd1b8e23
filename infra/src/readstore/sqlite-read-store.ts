import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateDatabaseFile } from '../files/private-files';
import { CheckedCollection, TransactionStore, type CollectionEngine } from './checked-collection';
import {
  DuplicateKeyError,
  UnsupportedQueryError,
  type Doc,
  type Filter,
  type IndexSpec,
  type ReadCollection,
  type ReadStore,
  type Projection,
  type Sort,
} from './port';
import {
  checkFindOptions,
  checkProjection,
  compileFilter,
  compileProjection,
  dispatch,
  replaceWrites,
  updateWrites,
  withIdFirst,
  type Writes,
} from './query-language';
import { deepEqual, isPlainObject, isScalar, newId, sortDocs, type PlainObject } from './values';

/*
 * Read models in a SQLite file, the embedded default: a table per collection (`"c:<name>"`, the
 * _id untyped so 1 and '1' stay apart, the document as JSON), a key column per indexed field
 * (`"k:<field>"`, see keyOf) and a SQL index per IndexSpec. A field that has held an array or an
 * object is multikey (as in MongoDB): its conditions and sorts are left to the language.
 * - SQL answers what it can exactly; the language's matcher and sort do the rest.
 * - One writer: writes land in the transaction's documents and reach SQL once, at the commit or
 *   before a query needs them (forty gifts to one creator write its document once).
 * - A read-only connection answers outside transactions: in WAL mode it never sees half a batch.
 */

type DocId = string | number;
type Db = Database.Database;

/** A document as the writer has it (`doc` never handed out nor changed in place). */
interface TxDoc {
  present: boolean;
  doc?: Doc;
  text?: string;
  /** its key columns, when it is a caller's document (kept as `text` only) */
  keys?: SqlValue[];
}

/** A collection's documents as the writer has them: read from SQL once, written back when `dirty`. */
interface CachedDocs {
  docs: Map<DocId, TxDoc>;
  /** the _ids of those SQL does not have as they are */
  dirty: Set<DocId>;
}

type SqlValue = string | number | Buffer | null;

const FALSE_KEY = Buffer.from([0]);
const TRUE_KEY = Buffer.from([1]);
const OBJECT_KEY = Buffer.from([0xfe]);
const ARRAY_KEY = Buffer.from([0xff]);
/**
 * 3: documents in rows kept in insertion order, `id` a unique index beside them (2 kept the rows in
 * `id` order, WITHOUT ROWID); 2: key columns written with the document (1 had them generated)
 */
const FORMAT_VERSION = 3;

/** A read-model file written in another format than this code's: `older` if by an earlier version of it. */
export class ReadModelFormatError extends Error {
  readonly older: boolean;
  constructor(readonly format: unknown) {
    super(`read-model file format ${String(format)}, not ${FORMAT_VERSION}`);
    this.older = typeof format === 'number' && format < FORMAT_VERSION;
  }
}

export interface StoreOptions {
  /**
   * queries only, on a file another connection writes (the embedded projections' thread): every
   * write fails, and what the store knows of tables and indexes is read again after their commits
   */
  readOnly?: boolean;
}

/**
 * Pages the write-ahead log holds before a commit copies them into the file (SQLite's default:
 * 1,000). The live batches rewrite the same pages again and again (index tails, counters, the
 * wallets), and a checkpoint copies each page once whatever number of versions the log holds, then
 * syncs the disk twice, on the event loop: a longer log means fewer copies and syncs per event
 * (some 40 MB of log at 4 KB pages).
 */
export const WAL_PAGES_BEFORE_CHECKPOINT = 10_000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const tableOf = (collection: string) => quote(`c:${collection}`);
/** a field that can have a key column (a plain name) */
const keyable = (field: string) => /^[A-Za-z0-9_-]+$/.test(field);
const columnOf = (field: string) => (field === '_id' ? 'id' : quote(`k:${field}`));

/**
 * A field's value in its key column, in an order that is MongoDB's for scalars: null and missing
 * as NULL, numbers, strings, then false and true as blobs; an array or an object gives a marker.
 */
function keyOf(value: unknown): SqlValue {
  if (typeof value === 'string') return value;
  // JSON writes NaN and the infinities as null
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? TRUE_KEY : FALSE_KEY;
  if (typeof value !== 'object' || value === null) return null;
  return Array.isArray(value) ? ARRAY_KEY : OBJECT_KEY;
}

/** A key column's value as documents hold it; undefined where the column cannot tell (null or missing, a marker). */
function valueOfKey(key: SqlValue): unknown {
  // JSON keeps no -0
  if (typeof key === 'number') return key === 0 ? 0 : key;
  if (typeof key === 'string') return key;
  return key !== null && key.length === 1 && key[0] <= 1 ? key[0] === 1 : undefined;
}

const isNested = (value: unknown) => typeof value === 'object' && value !== null;
const isDocId = (value: unknown): value is DocId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** `run`'s answer, or `missing` where the reader does not see the table (made by a running transaction). */
function unlessNoTable<R>(run: () => R, missing: R): R {
  try {
    return run();
  } catch (err) {
    if (/no such table/.test((err as Error).message ?? '')) return missing;
    throw err;
  }
}

/** What one collection declares: its indexes, their fields (key columns) and its multikey fields. */
interface CollectionSchema {
  indexes: Map<string, IndexSpec>;
  columns: Set<string>;
  multikey: Set<string>;
}

/** A query's SQL, and what it leaves to the language: the filter unless `exact`, the sort if `sortsHere`. */
interface Plan {
  sql: string;
  params: SqlValue[];
  exact: boolean;
  sortsHere: boolean;
  /** the projection's fields, which SQL selects (with `id`) from their key columns instead of the document */
  covered?: string[];
}

export class SqliteReadStore implements ReadStore {
  readonly supportsTransactions = true;
  private readonly writer: Db;
  /** read-only, outside transactions (infra/src/testing/read-store-plans.ts explains its queries) */
  readonly reader: Db;
  private readonly statements = new Map<Db, Map<string, Database.Statement>>();
  private schemas = new Map<string, CollectionSchema>();
  private queue: Promise<void> = Promise.resolve();
  private bulk = false;
  /** a bulk load's indexes not built yet, by collection */
  private readonly deferred = new Set<string>();
  private closed = false;
  /** documents read and rows written since the store was opened: what a query or a batch costs (tests, benches) */
  readonly counters = { docsExamined: 0, rowsWritten: 0 };
  private readonly engines = new Map<string, CollectionEngine>();
  /** tables this store created or found */
  private tables: Set<string>;
  /** the running writer transaction's documents, by collection */
  private readonly txDocs = new Map<string, CachedDocs>();
  /** what each write of the transaction replaced, to undo one that fails half-way */
  private readonly undo: Array<{ collection: string; cached: CachedDocs; id: DocId; previous: TxDoc }> = [];
  /** read-only: `PRAGMA data_version` of the reader, and its value when tables and schemas were last read */
  private readonly writtenElsewhere: Database.Statement | undefined;
  private seenVersion: unknown;

  /** A store in a temporary file, removed when closed or when the process exits. */
  static temporary(options?: StoreOptions): SqliteReadStore {
    const file = path.join(tmpdir(), `evo-read-${process.pid}-${newId()}.sqlite`);
    removeTemporaryFilesAtExit();
    temporaryFiles.add(file);
    return new SqliteReadStore(file, true, options);
  }

  constructor(
    readonly file: string,
    /** removed when closed; need not outlive a crash */
    private readonly temporary = false,
    { readOnly = false }: StoreOptions = {},
  ) {
    if (!readOnly) makePrivateDatabaseFile(file);
    // read-only: the "writer" reads tables and indexes, as the writing store's does
    this.writer = new Database(file, { timeout: 5000, readonly: readOnly, fileMustExist: readOnly });
    try {
      if (!readOnly) {
        this.writer.pragma('journal_mode = WAL');
        this.writer.pragma(temporary ? 'synchronous = OFF' : 'synchronous = NORMAL');
        this.writer.pragma(`wal_autocheckpoint = ${WAL_PAGES_BEFORE_CHECKPOINT}`);
        this.writer.exec(
          `CREATE TABLE IF NOT EXISTS _evo_meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
           CREATE TABLE IF NOT EXISTS _evo_indexes (collection TEXT, name TEXT, spec TEXT NOT NULL, PRIMARY KEY (collection, name)) WITHOUT ROWID;
           CREATE TABLE IF NOT EXISTS _evo_multikey (collection TEXT, field TEXT, PRIMARY KEY (collection, field)) WITHOUT ROWID;
           INSERT OR IGNORE INTO _evo_meta VALUES ('format', ${FORMAT_VERSION});`,
        );
      }
      const format = this.writer.prepare(`SELECT value FROM _evo_meta WHERE key = 'format'`).pluck().get();
      if (format !== FORMAT_VERSION) throw new ReadModelFormatError(format);
      this.reader = new Database(file, { timeout: 5000, readonly: true });
    } catch (err) {
      this.writer.close();
      throw err;
    }
    for (const db of [this.writer, this.reader]) db.pragma(`cache_size = -${16 * 1024}`);
    this.writtenElsewhere = readOnly ? this.reader.prepare('PRAGMA data_version').pluck() : undefined;
    this.seenVersion = this.writtenElsewhere?.get();
    this.tables = new Set(this.tableNames());
  }

  private statement(db: Db, sql: string): Database.Statement {
    let cache = this.statements.get(db);
    if (!cache) this.statements.set(db, (cache = new Map()));
    let stmt = cache.get(sql);
    if (!stmt) {
      if (cache.size > 1000) cache.clear();
      cache.set(sql, (stmt = db.prepare(sql)));
    }
    return stmt;
  }

  /** A collection's indexes and multikey fields, read from the file once (by the writer, which sees its own). */
  private schemaOf(collection: string): CollectionSchema {
    let schema = this.schemas.get(collection);
    if (!schema) {
      const indexes = `SELECT name, spec FROM _evo_indexes WHERE collection = ?`;
      const multikey = `SELECT field FROM _evo_multikey WHERE collection = ?`;
      schema = { indexes: new Map(), columns: new Set(), multikey: new Set() };
      for (const row of this.statement(this.writer, indexes).all(collection) as Array<{ name: string; spec: string }>) {
        const spec = JSON.parse(row.spec) as IndexSpec;
        schema.indexes.set(row.name, spec);
        for (const field of Object.keys(spec.key)) if (field !== '_id' && keyable(field)) schema.columns.add(field);
      }
      for (const field of this.statement(this.writer, multikey).pluck().all(collection))
        schema.multikey.add(field as string);
      this.schemas.set(collection, schema);
    }
    return schema;
  }

  private ensureTable(collection: string): void {
    if (this.tables.has(collection)) return;
    this.writer.exec(
      // a rowid table: a new document is appended, and only its small (id, rowid) entry goes in
      // among the others; in id order (WITHOUT ROWID) every insert split pages of whole documents
      `CREATE TABLE IF NOT EXISTS ${tableOf(collection)} (id PRIMARY KEY, doc TEXT NOT NULL)`,
    );
    this.tables.add(collection);
  }

  /** Runs `fn` in a transaction of the writer, after the running one: its writes reach SQL at the end. */
  private async inTransaction<R>(fn: () => R | Promise<R>): Promise<R> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    if (this.closed) {
      release();
      throw new Error('read store closed');
    }
    this.writer.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn();
      this.flushAll();
      this.writer.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
      // what the rolled-back transaction noted (multikey fields, tables, indexes) is read again from the file
      this.schemas = new Map();
      this.tables = new Set(this.tableNames());
      if (this.bulk) for (const collection of this.tables) this.deferred.add(collection);
      throw err;
    } finally {
      this.txDocs.clear();
      this.undo.length = 0;
      release();
    }
  }

  private flushAll(): void {
    for (const collection of this.txDocs.keys()) this.flush(collection);
  }

  /** The transaction's version of a document, read from SQL the first time it is asked for. */
  private txDoc(collection: string, id: DocId): TxDoc {
    const { docs } = this.cachedDocs(collection);
    let entry = docs.get(id);
    if (!entry) {
      const text = this.rowText(this.writer, collection, id);
      entry = text === undefined ? { present: false } : { present: true, text };
      docs.set(id, entry);
    }
    return entry;
  }

  private cachedDocs(collection: string): CachedDocs {
    let cached = this.txDocs.get(collection);
    if (!cached) this.txDocs.set(collection, (cached = { docs: new Map(), dirty: new Set() }));
    return cached;
  }

  /**
   * Read-only: after a commit of the writing connection, tables, indexes and multikey fields are
   * read again (they change with the documents; a table made by a rebuild's first write, say).
   */
  private seeOtherWriter(): void {
    if (!this.writtenElsewhere) return;
    const version = this.writtenElsewhere.get();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.schemas = new Map();
    this.tables = new Set(this.tableNames());
  }

  private rowText(db: Db, collection: string, id: DocId): string | undefined {
    if (!this.tables.has(collection)) return undefined;
    const sql = `SELECT doc FROM ${tableOf(collection)} WHERE id = ?`;
    return unlessNoTable(() => this.statement(db, sql).pluck().get(id) as string | undefined, undefined);
  }

  private setTxDoc(collection: string, id: DocId, next: TxDoc): void {
    const previous = this.txDoc(collection, id);
    const cached = this.txDocs.get(collection)!;
    this.undo.push({ collection, cached, id, previous });
    cached.docs.set(id, next);
    cached.dirty.add(id);
  }

  private parsed(entry: TxDoc): Doc {
    return (entry.doc ??= JSON.parse(entry.text!) as Doc);
  }

  private textOf(entry: TxDoc): string {
    return (entry.text ??= JSON.stringify(entry.doc));
  }

  /** Runs a write; if it throws, the documents it changed are as they were. */
  private undoable<R>(fn: () => R): R {
    const mark = this.undo.length;
    try {
      return fn();
    } catch (err) {
      while (this.undo.length > mark) {
        const { collection, cached, id, previous } = this.undo.pop()!;
        cached.docs.set(id, previous);
        cached.dirty.add(id);
        // SQL may have the undone version already (a unique key's change)
        this.flush(collection, [id]);
      }
      throw err;
    }
  }

  /** The collection's changed documents (or those of `ids`) written to SQL. */
  private flush(collection: string, ids?: DocId[]): void {
    const cached = this.txDocs.get(collection);
    if (!cached || cached.dirty.size === 0) return;
    const { docs, dirty } = cached;
    const table = tableOf(collection);
    const fields = [...this.schemaOf(collection).columns];
    const columns = ['doc', ...fields.map(columnOf)];
    const upsert = `INSERT INTO ${table} (id, ${columns.join(', ')}) VALUES (?${', ?'.repeat(columns.length)}) ON CONFLICT (id) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    // all of them in key order: neighbours in the B-tree written together
    for (const id of ids ?? [...dirty].sort()) {
      if (!dirty.delete(id)) continue;
      const entry = docs.get(id)!;
      if (entry.present) {
        this.ensureTable(collection);
        const keys = entry.keys ?? fields.map((f) => keyOf(this.parsed(entry)[f]));
        this.statement(this.writer, upsert).run(id, this.textOf(entry), ...keys);
      } else if (this.tables.has(collection)) {
        this.statement(this.writer, `DELETE FROM ${table} WHERE id = ?`).run(id);
      }
      this.counters.rowsWritten++;
    }
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new CheckedCollection<T>(name, this.engine(name, false));
  }

  /** A collection's reads and writes, in the running transaction (`inTx`) or on their own. */
  private engine(collection: string, inTx: boolean): CollectionEngine {
    const key = `${inTx ? 't' : 'o'}${collection}`;
    let engine = this.engines.get(key);
    if (engine) return engine;
    const db = inTx ? this.writer : this.reader;
    // a write of the running transaction at once (undone alone if it fails), any other in a transaction of its own
    const write = async <R>(fn: () => R) => (inTx ? this.undoable(fn) : this.inTransaction(fn));
    const now = this.writesOf(collection);
    engine = {
      find: async (filter, { sort, projection, ...options }) => {
        const { skip, limit } = checkFindOptions(options);
        return this.select(db, collection, filter, sort, skip, limit, projection);
      },
      count: async (filter) => this.count(db, collection, filter),
      write: (op) => write(() => dispatch<unknown>(op, now)),
      bulkWrite: async (ops) => {
        // ordered, and earlier writes stay when one fails
        const failure = await write(() => {
          try {
            for (const op of ops) this.undoable(() => dispatch<unknown>(op, now));
          } catch (err) {
            return err as Error;
          }
        });
        if (failure) throw failure;
      },
      createIndex: (spec) => this.inTransaction(() => this.createIndexNow(collection, spec)),
      drop: () => this.inTransaction(() => this.dropCollection(collection)),
    };
    this.engines.set(key, engine);
    return engine;
  }

  private tableNames(): string[] {
    const sql = `SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'c:*' ORDER BY name`;
    return (this.statement(this.writer, sql).pluck().all() as string[]).map((n) => n.slice(2));
  }

  async listCollections(): Promise<string[]> {
    return this.tableNames();
  }

  withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return this.inTransaction(() => fn(new TransactionStore((name) => this.engine(name, true), this)));
  }

  /**
   * A rebuild or a first start, into read models nobody reads yet: no sync to disk until the end,
   * and the indexes built once the documents are in (or when a query of the load needs one).
   */
  async bulkLoad<R>(fn: () => Promise<R>): Promise<R> {
    this.bulk = true;
    this.writer.pragma('synchronous = OFF');
    try {
      return await fn();
    } finally {
      try {
        await this.inTransaction(() => {
          for (const collection of [...this.deferred]) this.buildDeferred(collection);
        });
      } finally {
        this.bulk = false;
        if (!this.temporary) this.writer.pragma('synchronous = NORMAL');
      }
    }
  }

  async dropAll(): Promise<void> {
    await this.inTransaction(() => {
      for (const name of this.tableNames()) this.dropCollection(name);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    this.closed = true;
    this.reader.close();
    this.writer.close();
    if (this.temporary) {
      temporaryFiles.delete(this.file);
      removeDatabaseFiles(this.file);
    }
  }

  /** The file's length as its header tells it, and whether the WAL holds pages not written back. */
  pageCount(): { count: number; size: number; wal: boolean } {
    const count = this.writer.pragma('page_count', { simple: true }) as number;
    const size = this.writer.pragma('page_size', { simple: true }) as number;
    const wal = (statSync(`${this.file}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0;
    return { count, size, wal };
  }

  /**
   * SQL answers equalities, `$in` and ranges on key columns (or _id), and sorts on them. It selects
   * the documents, their count, or (a projection of key columns only, the rest answered by SQL) those
   * columns: an index that holds them answers without reading a document (MongoDB's covered query).
   */
  plan(
    collection: string,
    filter: Filter,
    sort: Sort | undefined,
    { count = false, projection }: { count?: boolean; projection?: Projection } = {},
  ): Plan {
    const schema = this.schemaOf(collection);
    const pushable = (field: string) => field === '_id' || (schema.columns.has(field) && !schema.multikey.has(field));
    const where: string[] = [];
    const params: SqlValue[] = [];
    let exact = true;
    for (const field in filter) {
      const cond = filter[field];
      if (field === '$or' || !pushable(field)) {
        exact = false;
        continue;
      }
      const column = columnOf(field);
      if (cond === null) {
        where.push(`${column} IS NULL`);
        continue;
      }
      if (isScalar(cond)) {
        where.push(`${column} = ?`);
        params.push(keyOf(cond));
        continue;
      }
      for (const [op, operand] of Object.entries(cond as PlainObject)) {
        switch (op) {
          case '$in': {
            const list = operand as Array<string | number | boolean | null>;
            if (list.some((v) => typeof v === 'boolean')) {
              exact = false;
              break;
            }
            const values = list.filter((v) => v !== null);
            const inList = `${column} IN (SELECT value FROM json_each(?))`;
            where.push(values.length < list.length ? `(${inList} OR ${column} IS NULL)` : inList);
            params.push(JSON.stringify(values));
            break;
          }
          case '$gt':
          case '$gte':
          case '$lt':
          case '$lte': {
            const sign = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op];
            where.push(`${column} ${sign} ?`);
            params.push(operand as string | number);
            // only values of the bound's type (MongoDB's type brackets): numbers sort before
            // every text in SQLite, texts before every blob
            if (typeof operand === 'number') where.push(`${column} < ''`, `${column} IS NOT NULL`);
            else where.push(`${column} >= ''`, `${column} < x''`);
            break;
          }
          default:
            exact = false;
        }
      }
    }
    const sortFields = Object.keys(sort ?? {});
    const sortsHere = !sortFields.every(pushable);
    const order = sortFields.map((field) => `${columnOf(field)} ${sort![field] === 1 ? 'ASC' : 'DESC'}`);
    // an inclusion (checkProjection) of columns SQL has exactly
    const fields = projection && checkProjection(projection) ? Object.keys(projection).filter((f) => f !== '_id') : [];
    const covered = exact && !sortsHere && fields.length > 0 && fields.every(pushable);
    const what = count ? 'count(*)' : covered ? ['id', ...fields.map(columnOf)].join(', ') : 'id, doc';
    let sql = `SELECT ${what} FROM ${tableOf(collection)}`;
    if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
    if (order.length > 0 && !sortsHere) sql += ` ORDER BY ${order.join(', ')}`;
    return { sql, params, exact, sortsHere, ...(covered && !count ? { covered: fields } : {}) };
  }

  /**
   * The documents matching `filter`, sorted, skipped, limited and projected: fresh objects (on the
   * writer, as its transaction has them). A projection SQL answers from key columns (see plan) is
   * read from them, in the projection's order of fields.
   */
  private select(
    db: Db,
    collection: string,
    filter: Filter,
    sort?: Sort,
    skip = 0,
    limit?: number,
    projection?: Projection,
  ): Doc[] {
    const project = (docs: Doc[]) => (projection ? (docs.map(compileProjection(projection)) as Doc[]) : docs);
    if (db === this.writer) {
      const found = this.txMatches(collection, filter);
      if (found !== undefined) {
        this.counters.docsExamined += found.length;
        const docs = found.map((entry) => JSON.parse(this.textOf(entry)) as Doc);
        return project(page(docs, sort, skip, limit));
      }
      this.flush(collection);
      this.buildDeferred(collection);
    }
    this.seeOtherWriter();
    if (db !== this.writer && isDocId(filter._id) && Object.keys(filter).length === 1) {
      // the commonest read, one document by _id: no plan
      const text = this.rowText(db, collection, filter._id);
      if (text !== undefined) this.counters.docsExamined++;
      return project(page(text === undefined ? [] : [JSON.parse(text) as Doc], undefined, skip, limit));
    }
    if (!this.tables.has(collection)) return [];
    const plan = this.plan(collection, filter, sort, { projection });
    if (plan.covered) return this.selectCovered(db, collection, plan, projection!, skip, limit);
    const matcher = plan.exact ? undefined : compileFilter(filter);
    const out: Doc[] = [];
    const rows = unlessNoTable(
      () => this.statement(db, plan.sql).iterate(...plan.params) as Iterable<{ doc: string }>,
      [],
    );
    for (const row of rows) {
      this.counters.docsExamined++;
      const doc = JSON.parse(row.doc) as Doc;
      if (matcher && !matcher(doc)) continue;
      out.push(doc);
      if (!plan.sortsHere && limit !== undefined && out.length >= skip + limit) break;
    }
    return project(page(out, plan.sortsHere ? sort : undefined, skip, limit));
  }

  /** A covered plan's rows as documents; a column that cannot tell a value (null or missing) has its row's document read. */
  private selectCovered(
    db: Db,
    collection: string,
    plan: Plan,
    projection: Projection,
    skip: number,
    limit: number | undefined,
  ): Doc[] {
    const fields = plan.covered!;
    const rows: Array<[DocId, ...SqlValue[]]> = [];
    const found = unlessNoTable(
      () =>
        this.statement(db, plan.sql)
          .raw()
          .iterate(...plan.params) as Iterable<[DocId, ...SqlValue[]]>,
      [],
    );
    for (const row of found) {
      this.counters.docsExamined++;
      if (skip-- <= 0 && rows.push(row) === limit) break;
    }
    return rows.map(([id, ...keys]) => {
      let values = keys.map(valueOfKey);
      // (after the iteration: the connection runs one statement at a time)
      if (values.includes(undefined)) {
        const stored = JSON.parse(this.rowText(db, collection, id) ?? '{}') as PlainObject;
        values = fields.map((f) => stored[f]);
      }
      const doc: PlainObject = projection._id === 0 ? {} : { _id: id };
      fields.forEach((f, i) => values[i] !== undefined && (doc[f] = values[i]));
      return doc as Doc;
    });
  }

  private count(db: Db, collection: string, filter: Filter): number {
    if (db === this.writer) {
      const found = this.txMatches(collection, filter);
      if (found !== undefined) return found.length;
      this.flush(collection);
    }
    this.seeOtherWriter();
    if (!this.tables.has(collection)) return 0;
    const plan = this.plan(collection, filter, undefined, { count: true });
    if (!plan.exact) return this.select(db, collection, filter).length;
    return unlessNoTable(
      () =>
        this.statement(db, plan.sql)
          .pluck()
          .get(...plan.params) as number,
      0,
    );
  }

  /**
   * A filter naming its _ids (`{ _id: 5, … }`, `{ _id: { $in: [...] }, … }`) answered from the
   * transaction's documents, in the order of the ids; undefined for any other filter.
   */
  private txMatches(collection: string, filter: Filter): TxDoc[] | undefined {
    const id = filter._id;
    let ids: DocId[];
    if (isDocId(id)) ids = [id];
    else if (isPlainObject(id) && Object.keys(id).length === 1 && Array.isArray(id.$in) && id.$in.every(isDocId)) {
      ids = [...new Set(id.$in as DocId[])];
    } else return undefined;
    const matcher = Object.keys(filter).length > 1 ? compileFilter(filter) : undefined;
    const out: TxDoc[] = [];
    for (const one of ids) {
      const entry = this.txDoc(collection, one);
      if (entry.present && (!matcher || matcher(this.parsed(entry)))) out.push(entry);
    }
    return out;
  }

  /** The documents a write applies to (the transaction's own objects: read, never changed). */
  private targets(collection: string, filter: Filter, one: boolean): Doc[] {
    const found = this.txMatches(collection, filter);
    if (found !== undefined) return (one ? found.slice(0, 1) : found).map((entry) => this.parsed(entry));
    return this.select(this.writer, collection, filter, undefined, 0, one ? 1 : undefined);
  }

  /**
   * Stores `doc` (new, or the next version of `previous`) in the transaction's documents. `owned`:
   * the updater's copy, kept as is; a caller's document is kept as JSON, so its later changes do nothing.
   */
  private put(collection: string, doc: Doc, previous: Doc | undefined, owned: boolean): void {
    const schema = this.schemaOf(collection);
    const id = doc._id;
    if (!isDocId(id))
      throw new UnsupportedQueryError(`_id ${JSON.stringify(id)} (outside the ReadStore's query language)`);
    for (const field of schema.columns) {
      if (isNested(doc[field]) && !schema.multikey.has(field)) this.noteMultikey(collection, field);
    }
    if (previous === undefined && this.txDoc(collection, id).present)
      throw new DuplicateKeyError(`duplicate key: ${collection} _id ${JSON.stringify(id)}`);
    const keysChanged = this.checkUnique(collection, schema, doc, previous);
    this.ensureTable(collection);
    const entry: TxDoc = owned
      ? { present: true, doc }
      : { present: true, text: JSON.stringify(doc), keys: [...schema.columns].map((f) => keyOf(doc[f])) };
    this.setTxDoc(collection, id, entry);
    // SQL's index then answers every unique check
    if (keysChanged) this.flush(collection, [id]);
  }

  /**
   * MongoDB's unique indexes: missing and null are one value, an array gives each of its elements.
   * SQL's UNIQUE has NULLs distinct, so a write that changes a key queries the key columns (the
   * index answers). Whether it changed one.
   */
  private checkUnique(collection: string, schema: CollectionSchema, doc: Doc, previous: Doc | undefined): boolean {
    let changed = false;
    for (const [name, spec] of schema.indexes) {
      if (!spec.unique) continue;
      const fields = Object.keys(spec.key);
      // a key the document already had is its own (a counter's update checks nothing)
      if (previous !== undefined && deepEqual(keyTuples(previous, fields), keyTuples(doc, fields))) continue;
      changed = true;
      // a bulk load's unique index is needed now
      this.buildDeferred(collection);
      if (fields.every((f) => !isNested(doc[f]) && !schema.multikey.has(f) && (f === '_id' || keyable(f)))) {
        // a scalar key: SQL has every document's, but for those the transaction deleted
        const where = fields.map((f) => `${columnOf(f)} IS ?`).join(' AND ');
        const sql = `SELECT id FROM ${tableOf(collection)} WHERE ${where} AND id IS NOT ?`;
        const values = fields.map((f) => keyOf(doc[f]));
        const holders = this.statement(this.writer, sql)
          .pluck()
          .all(...values, doc._id) as DocId[];
        if (holders.every((other) => this.txDocs.get(collection)?.docs.get(other)?.present === false)) continue;
      } else {
        // arrays in the key: compare every document's element combinations
        this.flush(collection);
        const mine = new Set(keyTuples(doc, fields));
        const others = this.select(this.writer, collection, {}).filter((other) => other._id !== doc._id);
        if (!others.some((other) => keyTuples(other, fields).some((k) => mine.has(k)))) continue;
      }
      throw new DuplicateKeyError(`duplicate key: ${collection} index ${name}`);
    }
    return changed;
  }

  private noteMultikey(collection: string, field: string): void {
    this.statement(this.writer, `INSERT OR IGNORE INTO _evo_multikey VALUES (?, ?)`).run(collection, field);
    this.schemaOf(collection).multikey.add(field);
  }

  /** A collection's writes, run at once in the writer's transaction. */
  private writesOf(collection: string) {
    return {
      insert: (doc) => this.put(collection, doc._id === undefined ? withIdFirst(doc, newId()) : doc, undefined, false),
      update: (filter, update, upsert, one) => {
        const targets = this.targets(collection, filter, one);
        const { docs, result } = updateWrites(targets, filter, update, upsert, newId);
        for (const { next, previous } of docs) this.put(collection, next, previous, true);
        return result;
      },
      replace: (filter, replacement, upsert) => {
        const [target] = this.targets(collection, filter, true);
        const { docs, result } = replaceWrites(target, filter, replacement, upsert);
        for (const { next, previous } of docs) this.put(collection, next, previous, false);
        return result;
      },
      delete: (filter, one) => {
        const targets = this.targets(collection, filter, one);
        for (const doc of targets) this.setTxDoc(collection, doc._id as DocId, { present: false });
        return { deletedCount: targets.length };
      },
    } satisfies Writes<unknown>;
  }

  private createIndexNow(collection: string, spec: IndexSpec): void {
    const name = spec.name ?? Object.entries(spec.key).flat().join('_');
    const schema = this.schemaOf(collection);
    const existing = schema.indexes.get(name);
    if (existing) {
      if (JSON.stringify(existing.key) !== JSON.stringify(spec.key) || !!existing.unique !== !!spec.unique)
        throw new Error(`index ${name} of ${collection} exists with another key`);
      // a load killed before its end, where indexes are built, left this one recorded but not built
      if (this.bulk) this.deferred.add(collection);
      else this.buildIndex(collection, existing);
      return;
    }
    this.ensureTable(collection);
    let docs: Doc[] | undefined;
    const present = () => (docs ??= this.select(this.writer, collection, {}));
    const fields = Object.keys(spec.key);
    for (const field of fields) {
      if (field === '_id' || !keyable(field) || schema.columns.has(field)) continue;
      this.writer.exec(`ALTER TABLE ${tableOf(collection)} ADD COLUMN ${columnOf(field)}`);
      schema.columns.add(field);
      // the documents already there: their keys, and the field multikey from the start if one is nested
      const fill = this.writer.prepare(`UPDATE ${tableOf(collection)} SET ${columnOf(field)} = ? WHERE id = ?`);
      for (const doc of present()) fill.run(keyOf(doc[field]), doc._id);
      if (present().some((doc) => isNested(doc[field]))) this.noteMultikey(collection, field);
      // cached documents (all in SQL now) have the key columns of the table as it was
      this.txDocs.delete(collection);
    }
    const stored: IndexSpec = { key: spec.key, ...(spec.unique ? { unique: true } : {}), name };
    if (spec.unique) {
      // refuse an index over documents that already break it
      const seen = new Set<string>();
      for (const doc of present()) {
        for (const key of new Set(keyTuples(doc, fields))) {
          if (seen.has(key)) throw new DuplicateKeyError(`duplicate key: ${collection} index ${name}`);
          seen.add(key);
        }
      }
    }
    this.writer.prepare(`INSERT INTO _evo_indexes VALUES (?, ?, ?)`).run(collection, name, JSON.stringify(stored));
    schema.indexes.set(name, stored);
    if (this.bulk) this.deferred.add(collection);
    else this.buildIndex(collection, stored);
  }

  private buildIndex(collection: string, spec: IndexSpec): void {
    const fields = Object.entries(spec.key).filter(([f]) => f === '_id' || keyable(f));
    if (fields.length === 0) return;
    const columns = fields.map(([f, dir]) => `${columnOf(f)} ${dir === 1 ? 'ASC' : 'DESC'}`);
    // ties in _id order, as the port sorts them (the rows are in insertion order)
    if (!fields.some(([f]) => f === '_id')) columns.push('id ASC');
    this.writer.exec(
      `CREATE INDEX IF NOT EXISTS ${quote(`i:${collection}:${spec.name}`)} ON ${tableOf(collection)} (${columns.join(', ')})`,
    );
  }

  /** The indexes a bulk load deferred (a query or unique check of the load builds them first). */
  private buildDeferred(collection: string): void {
    if (!this.deferred.delete(collection)) return;
    for (const spec of this.schemaOf(collection).indexes.values()) this.buildIndex(collection, spec);
  }

  private dropCollection(collection: string): void {
    this.writer.exec(`DROP TABLE IF EXISTS ${tableOf(collection)}`);
    this.tables.delete(collection);
    this.txDocs.delete(collection);
    this.writer.prepare(`DELETE FROM _evo_indexes WHERE collection = ?`).run(collection);
    this.writer.prepare(`DELETE FROM _evo_multikey WHERE collection = ?`).run(collection);
    this.schemas.delete(collection);
    this.deferred.delete(collection);
  }
}

const temporaryFiles = new Set<string>();
const removeDatabaseFiles = (file: string) => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
};
let removingAtExit = false;
/** One `exit` listener for every temporary store of the process (one per store warned past ten). */
function removeTemporaryFilesAtExit(): void {
  if (removingAtExit) return;
  removingAtExit = true;
  process.once('exit', () => temporaryFiles.forEach(removeDatabaseFiles));
}

/** The keys a document gives a unique index (one per combination of array elements), as strings. */
function keyTuples(doc: Doc, fields: string[]): string[] {
  let tuples: unknown[][] = [[]];
  for (const field of fields) {
    const value = doc[field] ?? null;
    const values = Array.isArray(value) ? (value.length === 0 ? [[]] : value) : [value];
    tuples = tuples.flatMap((t) => values.map((v) => [...t, v]));
  }
  return tuples.map((t) => JSON.stringify(t));
}

function page(docs: Doc[], sort: Sort | undefined, skip: number, limit: number | undefined): Doc[] {
  return (sort ? sortDocs(docs, sort) : docs).slice(skip, limit === undefined ? undefined : skip + limit);
}
