import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateDatabaseFile } from '../files/private-files';
import {
  DuplicateKeyError,
  UnsupportedQueryError,
  type BulkOp,
  type Doc,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadCollection,
  type ReadStore,
  type Sort,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from './port';
import {
  checkFilter,
  checkProjection,
  checkReplacement,
  checkSort,
  checkUpdate,
  compileFilter,
  compileProjection,
  isScalar,
  runBulkWrite,
  type Matcher,
} from './query-language';
import {
  applyUpdate,
  buildUpsertFromFilter,
  checkFindOptions,
  checkReplacementKeepsId,
  deepEqual,
  isPlainObject,
  newId,
  sortDocs,
  upsertedReplacementId,
  withIdFirst,
} from './values';

/*
 * Read models in a SQLite file (better-sqlite3): the embedded default.
 *
 * - One table per collection, `"c:<name>"(id PRIMARY KEY, doc TEXT)` WITHOUT ROWID: the _id as
 *   itself (no column type, so 1 and '1' stay apart) and the document as JSON.
 * - Each field of a declared index gets a virtual generated column `"k:<field>"`: the field's value
 *   in an order that is MongoDB's for scalars (null and missing as NULL, then numbers, strings,
 *   then false and true as the blobs x'00' and x'01'); an array or an object gives a marker blob.
 *   The IndexSpec is a SQL index on those columns. A field that has ever held an array or an
 *   object in a collection is noted (`_evo_multikey`, like MongoDB's multikey flag): its
 *   conditions and sorts are then left to the language's own evaluation.
 * - A query pushes down what SQL answers exactly (equalities, `$in`, ranges on key columns; _id)
 *   and sorts on key columns; every row is still tested against the whole filter by the
 *   language's matcher (query-language.ts), and anything else (`$or`, `$regex`, multikey fields,
 *   sorts SQL cannot give) is evaluated here, so the answers are the port's whatever SQL chose.
 * - Updates are read, computed with the language's updater, written back: there is one writer.
 * - Two connections: the writer, and a reader for queries outside a transaction. In WAL mode the
 *   reader sees only committed transactions, so nobody reads half a projection batch.
 */

type PlainObject = Record<string, unknown>;
type Row = { id: unknown; doc: string };
type SqlValue = string | number | Buffer | null;

const FALSE_KEY = Buffer.from([0]);
const TRUE_KEY = Buffer.from([1]);
const FORMAT_VERSION = 1;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const tableOf = (collection: string) => quote(`c:${collection}`);
/** a field that can have a key column: names a JSON path can carry without escapes */
const keyable = (field: string) => /^[A-Za-z0-9_-]+$/.test(field);
const columnOf = (field: string) => (field === '_id' ? 'id' : quote(`k:${field}`));

/** The key column's expression (deterministic, so SQLite can index it). */
function keyExpression(field: string): string {
  const p = `'$."${field}"'`;
  return (
    `CASE json_type(doc, ${p}) WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' ` +
    `WHEN 'array' THEN x'ff' WHEN 'object' THEN x'fe' ELSE json_extract(doc, ${p}) END`
  );
}

/** A scalar as SQL compares it in a key column (booleans are blobs there). */
function sqlKey(value: string | number | boolean | null): SqlValue {
  if (typeof value === 'boolean') return value ? TRUE_KEY : FALSE_KEY;
  return value;
}

const isNested = (value: unknown) => typeof value === 'object' && value !== null;

function defaultIndexName(key: Record<string, 1 | -1>): string {
  return Object.entries(key)
    .map(([field, dir]) => `${field}_${dir}`)
    .join('_');
}

function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const missingTable = (err: unknown) => /no such table/.test((err as Error).message ?? '');

/** What one collection declares: its indexes, their fields (key columns) and its multikey fields. */
interface CollectionSchema {
  indexes: Map<string, IndexSpec>;
  columns: Set<string>;
  multikey: Set<string>;
}

/** A SQL plan for a filter and sort: the WHERE it pushes down and whether that is the whole filter. */
interface Plan {
  where: string;
  params: SqlValue[];
  exact: boolean;
  orderBy: string | undefined;
}

export interface QueryExplain {
  plan: 'IXSCAN' | 'COLLSCAN';
  details: string[];
  exact: boolean;
  sortedHere: boolean;
  tempSort: boolean;
}

export interface SqliteReadStoreOptions {
  /** SQLite's page cache per connection, in MiB */
  cacheMiB?: number;
  /** remove the file when closed (tests, temporary stores) */
  temporary?: boolean;
  /**
   * another connection (a thread or a process) writes this file too: before each query, look
   * whether it changed the indexes or multikey fields (otherwise this store's writer is the only
   * one, and what it knows is the truth)
   */
  sharedWriter?: boolean;
}

export class SqliteReadStore implements ReadStore {
  readonly supportsTransactions = true;
  readonly file: string;
  private readonly writer: Database.Database;
  private readonly reader: Database.Database;
  private readonly statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
  private schemas = new Map<string, CollectionSchema>();
  private schemaStamp = 0;
  private readerVersion = -1;
  /** the writer's transaction, while one runs; other writes wait for it */
  private txOpen = false;
  private queue: Promise<void> = Promise.resolve();
  private bulk = false;
  /** a bulk load's indexes not built yet, by collection (unique ones are checked by scan meanwhile) */
  private readonly deferred = new Map<string, Set<string>>();
  private closed = false;
  private docsExamined = 0;
  /** tables this store created or found (a write to a new collection creates its table) */
  private readonly tables = new Set<string>();
  /** runs a function in a transaction of the writer (a savepoint inside one) */
  private readonly inWriterTx: (fn: () => unknown) => unknown;

  /** A store in a file of its own in the temporary folder, removed when closed or when the process exits. */
  static temporary(): SqliteReadStore {
    const file = path.join(tmpdir(), `evo-read-${process.pid}-${newId()}.sqlite`);
    if (temporaryFiles.size === 0) process.once('exit', removeTemporaryFiles);
    temporaryFiles.add(file);
    return new SqliteReadStore(file, { temporary: true });
  }

  constructor(
    file: string,
    private readonly options: SqliteReadStoreOptions = {},
  ) {
    this.file = file;
    const cache = `cache_size = -${(options.cacheMiB ?? 16) * 1024}`;
    makePrivateDatabaseFile(file);
    this.writer = new Database(file, { timeout: 5000 });
    try {
      this.writer.pragma('journal_mode = WAL');
      // a temporary store need not outlive a crash
      this.writer.pragma(options.temporary ? 'synchronous = OFF' : 'synchronous = NORMAL');
      this.writer.pragma(cache);
      this.writer.exec(
        `CREATE TABLE IF NOT EXISTS _evo_meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS _evo_indexes (collection TEXT, name TEXT, spec TEXT NOT NULL, PRIMARY KEY (collection, name)) WITHOUT ROWID;
         CREATE TABLE IF NOT EXISTS _evo_multikey (collection TEXT, field TEXT, PRIMARY KEY (collection, field)) WITHOUT ROWID;
         INSERT OR IGNORE INTO _evo_meta VALUES ('format', ${FORMAT_VERSION}), ('schema', 0);`,
      );
      const format = this.writer.prepare(`SELECT value FROM _evo_meta WHERE key = 'format'`).pluck().get();
      if (format !== FORMAT_VERSION) throw new Error(`read-model file format ${String(format)}, not ${FORMAT_VERSION}`);
      this.reader = new Database(file, { timeout: 5000, readonly: true });
      this.reader.pragma(cache);
      this.inWriterTx = this.writer.transaction((fn: () => unknown) => fn());
      for (const name of this.tableNames()) this.tables.add(name);
    } catch (err) {
      this.writer.close();
      throw err;
    }
  }

  // ---- connections, statements, schema ------------------------------------------------------

  private statement(db: Database.Database, sql: string): Database.Statement {
    let cache = this.statements.get(db);
    if (!cache) this.statements.set(db, (cache = new Map()));
    let stmt = cache.get(sql);
    if (!stmt) {
      if (cache.size > 1000) cache.clear();
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  }

  /**
   * What the store knows of a collection's indexes and multikey fields. Another connection (a
   * projection runner in another thread or process) may have changed them: the reader's
   * data_version tells that something was committed, the `schema` stamp whether it was this.
   */
  private schemaOf(collection: string): CollectionSchema {
    const version = this.options.sharedWriter
      ? (this.statement(this.reader, 'PRAGMA data_version').pluck().get() as number)
      : this.readerVersion;
    if (version !== this.readerVersion) {
      this.readerVersion = version;
      const stamp = this.statement(this.reader, `SELECT value FROM _evo_meta WHERE key = 'schema'`).pluck().get();
      if (stamp !== this.schemaStamp) {
        this.schemaStamp = stamp as number;
        this.schemas = new Map();
      }
    }
    let schema = this.schemas.get(collection);
    if (!schema) {
      schema = { indexes: new Map(), columns: new Set(), multikey: new Set() };
      const db = this.txOpen ? this.writer : this.reader;
      for (const row of this.statement(db, `SELECT name, spec FROM _evo_indexes WHERE collection = ?`).all(
        collection,
      ) as Array<{ name: string; spec: string }>) {
        const spec = JSON.parse(row.spec) as IndexSpec;
        schema.indexes.set(row.name, spec);
        for (const field of Object.keys(spec.key)) if (field !== '_id' && keyable(field)) schema.columns.add(field);
      }
      for (const field of this.statement(db, `SELECT field FROM _evo_multikey WHERE collection = ?`)
        .pluck()
        .all(collection) as string[])
        schema.multikey.add(field);
      this.schemas.set(collection, schema);
    }
    return schema;
  }

  private reloadSchemas(): void {
    this.schemas = new Map();
    this.tables.clear();
    for (const name of this.tableNames()) this.tables.add(name);
  }

  /** Schema changes made here: the stamp moves so that other connections reload theirs. */
  private bumpSchema(): void {
    this.schemaStamp =
      (this.writer.prepare(`SELECT value FROM _evo_meta WHERE key = 'schema'`).pluck().get() as number) + 1;
    this.writer.prepare(`UPDATE _evo_meta SET value = ? WHERE key = 'schema'`).run(this.schemaStamp);
  }

  private ensureTable(collection: string): void {
    if (this.tables.has(collection)) return;
    this.writer.exec(
      `CREATE TABLE IF NOT EXISTS ${tableOf(collection)} (id PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID`,
    );
    this.tables.add(collection);
  }

  /**
   * Writes run one at a time: a transaction's own writes at once (in a savepoint, so a failed one
   * leaves nothing), any other write in a transaction of its own, after the running one.
   */
  private write<R>(inTx: boolean, fn: () => R): Promise<R> {
    if (this.closed) return Promise.reject(new Error('read store closed'));
    if (inTx || !this.txOpen) {
      try {
        return Promise.resolve(this.inWriterTx(fn) as R);
      } catch (err) {
        // what the failed write noted (columns, multikey fields) is read again from the file
        if (!inTx) this.reloadSchemas();
        return Promise.reject(err);
      }
    }
    return this.queue.then(() => this.write(false, fn));
  }

  // ---- the port -------------------------------------------------------------------------------

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new SqliteCollection<T>(this, name, false);
  }

  private tableNames(): string[] {
    const db = this.txOpen ? this.writer : this.reader;
    const names = this.statement(
      db,
      `SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'c:*' ORDER BY name`,
    )
      .pluck()
      .all() as string[];
    return names.map((n) => n.slice(2));
  }

  async listCollections(): Promise<string[]> {
    return this.tableNames();
  }

  /**
   * Does the collection's table exist? This store's writer creates and drops them, so it knows;
   * with another writer, SQL is asked (a query on a missing table then answers nothing).
   */
  private hasTable(collection: string): boolean {
    return this.options.sharedWriter === true || this.tables.has(collection);
  }

  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    if (this.closed) {
      release();
      throw new Error('read store closed');
    }
    this.txOpen = true;
    this.writer.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn(new SqliteTxStore(this));
      this.writer.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
      // what the rolled-back transaction noted (multikey fields, tables) is read again from the file
      this.reloadSchemas();
      throw err;
    } finally {
      this.txOpen = false;
      release();
    }
  }

  /**
   * Filling a store nobody reads yet (a rebuild): no sync to disk until the end, and the
   * indexes built once the documents are in (or when a query first needs one).
   */
  async bulkLoad<R>(fn: () => Promise<R>): Promise<R> {
    this.bulk = true;
    this.writer.pragma('synchronous = OFF');
    try {
      return await fn();
    } finally {
      this.bulk = false;
      if (!this.options.temporary) this.writer.pragma('synchronous = NORMAL');
      await this.write(false, () => {
        for (const collection of [...this.deferred.keys()]) this.buildDeferred(collection);
      });
    }
  }

  async dropAll(): Promise<void> {
    const names = await this.listCollections();
    await this.write(false, () => {
      for (const name of names) this.dropCollection(name);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    this.closed = true;
    this.reader.close();
    this.writer.close();
    if (this.options.temporary) {
      temporaryFiles.delete(this.file);
      removeDatabaseFiles(this.file);
    }
  }

  /** The file's length as SQLite's header tells it (pages written back from the WAL) */
  pageCount(): { count: number; size: number; wal: boolean } {
    const count = this.writer.pragma('page_count', { simple: true }) as number;
    const size = this.writer.pragma('page_size', { simple: true }) as number;
    let wal = false;
    try {
      wal = statSync(`${this.file}-wal`).size > 0;
    } catch {
      // no WAL file
    }
    return { count, size, wal };
  }

  /**
   * How a find runs (tests check that the hot queries use an index): SQLite's query plan, whether
   * it searches an index ('IXSCAN') or scans the table ('COLLSCAN'), whether the sort is left to
   * the language (`sortedHere`) or to a temporary B-tree, and whether every row SQL gives is a
   * match (`exact`: nothing left to the language's matcher).
   */
  explain(collection: string, filter: Filter, options: FindOptions = {}): QueryExplain {
    const plan = this.plan(collection, filter, options.sort);
    const sql = `EXPLAIN QUERY PLAN ${this.selectSql(collection, plan)}`;
    const details = (this.reader.prepare(sql).all(...plan.params) as Array<{ detail: string }>).map((r) => r.detail);
    const scans = details.some((d) => /^SCAN c:/.test(d) && !/USING/.test(d));
    return {
      plan: scans ? 'COLLSCAN' : 'IXSCAN',
      details,
      exact: plan.exact,
      sortedHere: options.sort !== undefined && Object.keys(options.sort).length > 0 && plan.orderBy === undefined,
      tempSort: details.some((d) => d.includes('TEMP B-TREE')),
    };
  }

  /** Documents read (rows parsed) since the store was opened: what a query costs, in tests. */
  counters(): { docsExamined: number } {
    return { docsExamined: this.docsExamined };
  }

  /** The indexes declared on a collection, by name. */
  indexNames(collection: string): string[] {
    return [...this.schemaOf(collection).indexes.keys()].sort();
  }

  // ---- queries ------------------------------------------------------------------------------

  private plan(collection: string, filter: Filter, sort: Sort | undefined): Plan {
    const schema = this.schemaOf(collection);
    const where: string[] = [];
    const params: SqlValue[] = [];
    let exact = true;
    for (const field in filter) {
      const cond = filter[field];
      const pushable = field === '_id' || (schema.columns.has(field) && !schema.multikey.has(field));
      if (field === '$or' || !pushable) {
        exact = false;
        continue;
      }
      const column = columnOf(field);
      if (cond === null) {
        if (field === '_id') exact = false;
        else where.push(`${column} IS NULL`);
        continue;
      }
      if (isScalar(cond)) {
        where.push(`${column} = ?`);
        params.push(sqlKey(cond));
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
            where.push(values.length < list.length && field !== '_id' ? `(${inList} OR ${column} IS NULL)` : inList);
            params.push(JSON.stringify(values));
            if (values.length < list.length && field === '_id') exact = false;
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
    let orderBy: string | undefined;
    if (sort && Object.keys(sort).length > 0) {
      const terms: string[] = [];
      for (const [field, dir] of Object.entries(sort)) {
        if (field !== '_id' && (!schema.columns.has(field) || schema.multikey.has(field))) {
          terms.length = 0;
          break;
        }
        terms.push(`${columnOf(field)} ${dir === 1 ? 'ASC' : 'DESC'}`);
      }
      if (terms.length > 0) orderBy = terms.join(', ');
    }
    return { where: where.length > 0 ? where.join(' AND ') : '', params, exact, orderBy };
  }

  private selectSql(collection: string, plan: Plan, what = 'id, doc'): string {
    return (
      `SELECT ${what} FROM ${tableOf(collection)}` +
      (plan.where ? ` WHERE ${plan.where}` : '') +
      (plan.orderBy ? ` ORDER BY ${plan.orderBy}` : '')
    );
  }

  /**
   * The documents matching `filter`, in `sort`'s order, `skip` and `limit` applied: parsed, fresh
   * objects (the caller may keep or change them).
   */
  select(
    db: Database.Database,
    collection: string,
    filter: Filter,
    sort: Sort | undefined,
    skip: number,
    limit: number | undefined,
  ): Doc[] {
    if (!this.hasTable(collection)) return [];
    if (db === this.writer && this.deferred.size > 0) this.buildDeferred(collection);
    const plan = this.plan(collection, filter, sort);
    const matcher: Matcher | undefined = plan.exact ? undefined : compileFilter(filter, true);
    const sortsHere = sort !== undefined && Object.keys(sort).length > 0 && plan.orderBy === undefined;
    const out: Doc[] = [];
    let skipped = 0;
    let rows: IterableIterator<unknown>;
    try {
      rows = this.statement(db, this.selectSql(collection, plan)).iterate(...plan.params);
    } catch (err) {
      if (missingTable(err)) return [];
      throw err;
    }
    for (const row of rows as IterableIterator<Row>) {
      this.docsExamined++;
      const doc = JSON.parse(row.doc) as Doc;
      if (matcher && !matcher(doc)) continue;
      if (!sortsHere && skipped < skip) {
        skipped++;
        continue;
      }
      out.push(doc);
      if (!sortsHere && limit !== undefined && out.length >= limit) {
        rows.return?.();
        break;
      }
    }
    if (!sortsHere) return out;
    const sorted = sortDocs(out, sort);
    return sorted.slice(skip, limit === undefined ? undefined : skip + limit);
  }

  count(db: Database.Database, collection: string, filter: Filter): number {
    if (!this.hasTable(collection)) return 0;
    const plan = this.plan(collection, filter, undefined);
    if (!plan.exact) return this.select(db, collection, filter, undefined, 0, undefined).length;
    try {
      return this.statement(db, this.selectSql(collection, plan, 'count(*)'))
        .pluck()
        .get(...plan.params) as number;
    } catch (err) {
      if (missingTable(err)) return 0;
      throw err;
    }
  }

  /** One document by _id, through the given connection. */
  byId(db: Database.Database, collection: string, id: unknown): Doc | null {
    if (!this.hasTable(collection)) return null;
    try {
      const text = this.statement(db, `SELECT doc FROM ${tableOf(collection)} WHERE id = ?`)
        .pluck()
        .get(id as SqlValue) as string | undefined;
      if (text === undefined) return null;
      this.docsExamined++;
      return JSON.parse(text) as Doc;
    } catch (err) {
      if (missingTable(err)) return null;
      throw err;
    }
  }

  readerFor(inTx: boolean): Database.Database {
    return inTx ? this.writer : this.reader;
  }

  // ---- writes (on the writer connection, inside a transaction or a savepoint) ---------------

  /** Documents a write applies to: by _id without planning, else the query. */
  private targets(collection: string, filter: Filter, one: boolean): Doc[] {
    const id = filter._id;
    if (
      (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) &&
      Object.keys(filter).length === 1
    ) {
      const doc = this.byId(this.writer, collection, id);
      return doc ? [doc] : [];
    }
    return this.select(this.writer, collection, filter, undefined, 0, one ? 1 : undefined);
  }

  /** Stores `doc` (insert, or replace the row of `previousId`), keeping indexes and flags. */
  private put(collection: string, doc: Doc, replacing: boolean): void {
    const schema = this.schemaOf(collection);
    if (typeof doc._id !== 'string' && !(typeof doc._id === 'number' && Number.isFinite(doc._id)))
      throw new UnsupportedQueryError(`_id ${JSON.stringify(doc._id)} (outside the ReadStore's query language)`);
    for (const field of schema.columns) {
      if (isNested(doc[field]) && !schema.multikey.has(field)) {
        this.writer.prepare(`INSERT OR IGNORE INTO _evo_multikey VALUES (?, ?)`).run(collection, field);
        schema.multikey.add(field);
        this.bumpSchema();
      }
    }
    this.checkUnique(collection, schema, doc);
    const text = JSON.stringify(doc);
    if (replacing) {
      this.statement(this.writer, `UPDATE ${tableOf(collection)} SET doc = ? WHERE id = ?`).run(text, doc._id);
      return;
    }
    this.ensureTable(collection);
    try {
      this.statement(this.writer, `INSERT INTO ${tableOf(collection)} (id, doc) VALUES (?, ?)`).run(doc._id, text);
    } catch (err) {
      if (isDuplicate(err)) throw new DuplicateKeyError(`duplicate key: ${collection} _id ${JSON.stringify(doc._id)}`);
      throw err;
    }
  }

  /**
   * MongoDB's unique indexes: missing and null are one value, and an array gives each of its
   * elements. SQL's UNIQUE treats NULLs as distinct, so the check is a query on the key columns
   * (the index answers it) before each write.
   */
  private checkUnique(collection: string, schema: CollectionSchema, doc: Doc): void {
    for (const [name, spec] of schema.indexes) {
      if (!spec.unique) continue;
      const fields = Object.keys(spec.key);
      const scalarKey = fields.every(
        (f) => !isNested(doc[f]) && !schema.multikey.has(f) && (f === '_id' || keyable(f)),
      );
      if (scalarKey && !this.deferred.get(collection)?.has(name)) {
        const where = fields.map((f) => `${columnOf(f)} IS ?`).join(' AND ');
        const taken = this.statement(
          this.writer,
          `SELECT 1 FROM ${tableOf(collection)} WHERE ${where} AND id IS NOT ? LIMIT 1`,
        )
          .pluck()
          .get(...fields.map((f) => sqlKey((doc[f] ?? null) as string | number | boolean | null)), doc._id as SqlValue);
        if (taken !== undefined) throw new DuplicateKeyError(`duplicate key: ${collection} index ${name}`);
        continue;
      }
      // arrays in the key: compare every document's element combinations
      const keysOf = (d: Doc) => keyTuples(d, fields);
      const mine = new Set(keysOf(doc));
      for (const other of this.select(this.writer, collection, {}, undefined, 0, undefined)) {
        if (other._id === doc._id) continue;
        if (keysOf(other).some((k) => mine.has(k)))
          throw new DuplicateKeyError(`duplicate key: ${collection} index ${name}`);
      }
    }
  }

  private remove(collection: string, id: unknown): void {
    this.statement(this.writer, `DELETE FROM ${tableOf(collection)} WHERE id = ?`).run(id as SqlValue);
  }

  insert(inTx: boolean, collection: string, doc: Doc): Promise<void> {
    if (!isPlainObject(doc)) return Promise.reject(new Error('insertOne expects a document'));
    return this.write(inTx, () => this.insertNow(collection, doc));
  }

  private insertNow(collection: string, doc: Doc): void {
    checkReplacement(doc);
    const copy = doc._id === undefined ? withIdFirst(doc, newId()) : doc;
    this.put(collection, copy, false);
  }

  update(
    inTx: boolean,
    collection: string,
    filter: Filter,
    update: Update,
    upsert: boolean,
    one: boolean,
  ): Promise<UpdateResult> {
    return this.write(inTx, () => this.updateNow(collection, filter, update, upsert, one));
  }

  private updateNow(collection: string, filter: Filter, update: Update, upsert: boolean, one: boolean): UpdateResult {
    checkFilter(filter);
    checkUpdate(update);
    const targets = this.targets(collection, filter, one);
    if (targets.length === 0) {
      if (!upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
      const created = applyUpdate(buildUpsertFromFilter(filter), update, true) as PlainObject;
      this.put(collection, withIdFirst(created, created._id ?? newId()), false);
      return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    }
    // computed against the state before the first write, like one server-side pass
    const updated = targets.map((doc) => ({ doc, next: applyUpdate(doc, update, false) }));
    let modifiedCount = 0;
    for (const { doc, next } of updated) {
      if (deepEqual(doc, next)) continue;
      this.put(collection, next, true);
      modifiedCount += 1;
    }
    return { matchedCount: targets.length, modifiedCount, upsertedCount: 0 };
  }

  replace(inTx: boolean, collection: string, filter: Filter, replacement: Doc, upsert: boolean): Promise<UpdateResult> {
    return this.write(inTx, () => this.replaceNow(collection, filter, replacement, upsert));
  }

  private replaceNow(collection: string, filter: Filter, replacement: Doc, upsert: boolean): UpdateResult {
    checkFilter(filter);
    if (!isPlainObject(replacement)) throw new Error('replaceOne expects a document');
    checkReplacement(replacement);
    const [target] = this.targets(collection, filter, true);
    if (!target) {
      if (!upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
      this.put(collection, withIdFirst(replacement, upsertedReplacementId(replacement, filter)), false);
      return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    }
    checkReplacementKeepsId(replacement, target._id);
    const next = withIdFirst(replacement, target._id);
    if (deepEqual(target, next)) return { matchedCount: 1, modifiedCount: 0, upsertedCount: 0 };
    this.put(collection, next, true);
    return { matchedCount: 1, modifiedCount: 1, upsertedCount: 0 };
  }

  delete(inTx: boolean, collection: string, filter: Filter, one: boolean): Promise<{ deletedCount: number }> {
    return this.write(inTx, () => this.deleteNow(collection, filter, one));
  }

  private deleteNow(collection: string, filter: Filter, one: boolean): { deletedCount: number } {
    checkFilter(filter);
    const targets = this.targets(collection, filter, one);
    for (const doc of targets) this.remove(collection, doc._id);
    return { deletedCount: targets.length };
  }

  bulkWrite(inTx: boolean, collection: string, ops: BulkOp[]): Promise<void> {
    // ordered, and earlier writes stay when one fails: each operation in a savepoint of its own
    const failure = this.write(inTx, () => {
      try {
        runBulkWrite(ops, {
          insert: (d) => this.inWriterTx(() => this.insertNow(collection, d)),
          update: (f, u, upsert, one) => this.inWriterTx(() => this.updateNow(collection, f, u, upsert, one)),
          delete: (f, one) => this.inWriterTx(() => this.deleteNow(collection, f, one)),
          replace: (f, r, upsert) => this.inWriterTx(() => this.replaceNow(collection, f, r, upsert)),
        });
        return undefined;
      } catch (err) {
        return err;
      }
    });
    return failure.then((err) => {
      if (err !== undefined) throw err;
    });
  }

  createIndex(collection: string, spec: IndexSpec): Promise<void> {
    return this.write(false, () => this.createIndexNow(collection, spec));
  }

  private createIndexNow(collection: string, spec: IndexSpec): void {
    checkSort(spec.key);
    const name = spec.name ?? defaultIndexName(spec.key);
    const schema = this.schemaOf(collection);
    const existing = schema.indexes.get(name);
    if (existing) {
      if (JSON.stringify(existing.key) !== JSON.stringify(spec.key) || !!existing.unique !== !!spec.unique)
        throw new Error(`index ${name} of ${collection} exists with another key`);
      return;
    }
    this.ensureTable(collection);
    const table = tableOf(collection);
    for (const field of Object.keys(spec.key)) {
      if (field === '_id' || !keyable(field) || schema.columns.has(field)) continue;
      this.writer.exec(
        `ALTER TABLE ${table} ADD COLUMN ${columnOf(field)} GENERATED ALWAYS AS (${keyExpression(field)}) VIRTUAL`,
      );
      schema.columns.add(field);
      // a field already holding arrays or objects is multikey from the start
      const nested = this.writer
        .prepare(`SELECT 1 FROM ${table} WHERE ${columnOf(field)} IN (x'fe', x'ff') LIMIT 1`)
        .pluck()
        .get();
      if (nested !== undefined) {
        this.writer.prepare(`INSERT OR IGNORE INTO _evo_multikey VALUES (?, ?)`).run(collection, field);
        schema.multikey.add(field);
      }
    }
    const stored: IndexSpec = { key: spec.key, ...(spec.unique ? { unique: true } : {}), name };
    if (spec.unique) {
      // refuse an index over documents that already break it
      const seen = new Set<string>();
      const fields = Object.keys(spec.key);
      for (const doc of this.select(this.writer, collection, {}, undefined, 0, undefined)) {
        for (const key of keyTuples(doc, fields)) {
          if (seen.has(key)) throw new DuplicateKeyError(`duplicate key: ${collection} index ${name}`);
          seen.add(key);
        }
      }
    }
    this.writer.prepare(`INSERT INTO _evo_indexes VALUES (?, ?, ?)`).run(collection, name, JSON.stringify(stored));
    schema.indexes.set(name, stored);
    if (!this.bulk) this.buildIndex(collection, stored);
    else if (this.deferred.has(collection)) this.deferred.get(collection)!.add(name);
    else this.deferred.set(collection, new Set([name]));
    this.bumpSchema();
  }

  private buildIndex(collection: string, spec: IndexSpec): void {
    const fields = Object.entries(spec.key).filter(([f]) => f === '_id' || keyable(f));
    if (fields.length === 0) return;
    const columns = fields.map(([f, dir]) => `${columnOf(f)} ${dir === 1 ? 'ASC' : 'DESC'}`).join(', ');
    this.writer.exec(
      `CREATE INDEX IF NOT EXISTS ${quote(`i:${collection}:${spec.name}`)} ON ${tableOf(collection)} (${columns})`,
    );
  }

  /** The indexes a bulk load deferred, built once; a query of the load that needs them builds them first. */
  private buildDeferred(collection: string): void {
    const names = this.deferred.get(collection);
    if (!names) return;
    this.deferred.delete(collection);
    const schema = this.schemaOf(collection);
    for (const name of names) {
      const spec = schema.indexes.get(name);
      if (spec) this.buildIndex(collection, spec);
    }
  }

  drop(collection: string): Promise<void> {
    return this.write(false, () => this.dropCollection(collection));
  }

  private dropCollection(collection: string): void {
    this.writer.exec(`DROP TABLE IF EXISTS ${tableOf(collection)}`);
    this.tables.delete(collection);
    this.writer.prepare(`DELETE FROM _evo_indexes WHERE collection = ?`).run(collection);
    this.writer.prepare(`DELETE FROM _evo_multikey WHERE collection = ?`).run(collection);
    this.schemas.delete(collection);
    this.deferred.delete(collection);
    this.bumpSchema();
  }

  get inTransaction(): boolean {
    return this.txOpen;
  }
}

const temporaryFiles = new Set<string>();
const removeDatabaseFiles = (file: string) => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
};
function removeTemporaryFiles() {
  for (const file of temporaryFiles) removeDatabaseFiles(file);
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

/** The store handed to a transaction's callback: reads see its own writes (the writer connection). */
class SqliteTxStore implements ReadStore {
  constructor(private readonly store: SqliteReadStore) {}
  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new SqliteCollection<T>(this.store, name, true);
  }
  listCollections(): Promise<string[]> {
    return this.store.listCollections();
  }
  withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return fn(this);
  }
  dropAll(): Promise<void> {
    return Promise.reject(new UnsupportedQueryError('dropAll inside a transaction'));
  }
  close(): Promise<void> {
    return Promise.reject(new Error('close inside a transaction'));
  }
}

class SqliteCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    private readonly store: SqliteReadStore,
    readonly name: string,
    private readonly inTx: boolean,
  ) {}

  private get db() {
    return this.store.readerFor(this.inTx);
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    checkFilter(filter);
    checkSort(options.sort);
    checkProjection(options.projection);
    const { skip, limit } = checkFindOptions(options);
    const id = filter._id;
    let docs: Doc[];
    if (
      (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) &&
      Object.keys(filter).length === 1 &&
      skip === 0
    ) {
      // the commonest read, one document by _id
      const doc = this.store.byId(this.db, this.name, id);
      docs = doc && limit !== 0 ? [doc] : [];
    } else {
      docs = this.store.select(this.db, this.name, filter, options.sort, skip, limit);
    }
    if (!options.projection || Object.keys(options.projection).length === 0) return docs as T[];
    const project = compileProjection(options.projection);
    return docs.map((doc) => project(doc, (v) => v)) as T[];
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    checkFilter(filter);
    return this.store.count(this.db, this.name, filter);
  }

  insertOne(doc: T): Promise<void> {
    return this.store.insert(this.inTx, this.name, doc);
  }
  updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.store.update(this.inTx, this.name, filter, update, options.upsert === true, true);
  }
  updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.store.update(this.inTx, this.name, filter, update, options.upsert === true, false);
  }
  replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.store.replace(this.inTx, this.name, filter, replacement, options.upsert === true);
  }
  deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return this.store.delete(this.inTx, this.name, filter, true);
  }
  deleteMany(filter: Filter = {}): Promise<{ deletedCount: number }> {
    return this.store.delete(this.inTx, this.name, filter, false);
  }
  bulkWrite(ops: BulkOp[]): Promise<void> {
    return this.store.bulkWrite(this.inTx, this.name, ops);
  }
  createIndex(spec: IndexSpec): Promise<void> {
    if (this.inTx) return Promise.reject(new UnsupportedQueryError('createIndex inside a transaction'));
    return this.store.createIndex(this.name, spec);
  }
  drop(): Promise<void> {
    if (this.inTx) return Promise.reject(new UnsupportedQueryError('drop inside a transaction'));
    return this.store.drop(this.name);
  }
}
