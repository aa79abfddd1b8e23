import Database from 'better-sqlite3';
import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import path from 'node:path';
import { makePrivateDatabaseFile } from '../files/private-files';
import type { LogPosition, NewEvent, RecordedEvent } from '@evo/domain';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type SubscribeOptions,
  type SubscriptionHandle,
} from './port';
import { DAMAGED_LOG_ADVICE, DataFileError, UnreadableEventError } from './data-file-error';
import { PollingSubscription, type SubscriptionTiming } from './polling-subscription';
import { DurableMark } from './durable-mark';

export interface SqliteEventStoreOptions {
  /** how often live subscriptions look for events appended by other processes (ms); default 200 */
  pollIntervalMs?: number;
  /** first delay before a failed subscription retries (ms); doubles on each failure; default 100 */
  retryInitialMs?: number;
  /** cap of the subscription retry delay (ms); default 5000 */
  retryMaxMs?: number;
  /** how long a writer waits for another process holding the write lock (ms); default 5000 */
  busyTimeoutMs?: number;
  /** most appends grouped into one transaction; default 512 */
  maxGroupSize?: number;
  /**
   * how the write-ahead log file is flushed to the disk before appends are acknowledged: node's
   * `fs.fsync` (libuv's thread pool) unless a test gives its own
   */
  syncFile?: (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;
  /** this store appends: it keeps `mark` at the first position it committed and has not fsynced yet */
  publishDurable?: DurableMark;
  /**
   * this store only reads a log that another thread's store appends to and marks (its
   * `publishDurable`): subscriptions deliver what is before the mark, and wake when it moves
   */
  followDurable?: DurableMark;
}

/** Counters of the group commit, for tests and benchmarks. */
export interface CommitStats {
  transactions: number;
  appends: number;
  events: number;
  /** fsyncs of the write-ahead log (one may cover several transactions) */
  syncs: number;
}

/** An event this store wrote, kept for its subscriptions (decoded once, by the first that reads it). */
interface RecentEvent {
  position: number;
  streamId: string;
  revision: number;
  row: SerializedEvent;
  event?: RecordedEvent;
}

/** Appends committed to the write-ahead log and waiting for the fsync that makes them durable. */
interface Unsynced {
  settle: Array<() => void>;
  fail: Array<(err: unknown) => void>;
  /** the events they wrote, in log order */
  written: RecentEvent[];
}

/** events this store wrote that its subscriptions are given without reading them back */
const RECENT_EVENTS = 1024;
/** streams whose last revision is remembered (forgotten all at once beyond) */
const KNOWN_HEADS = 50_000;

/** An append serialized at call time and waiting in the group-commit queue. */
interface PendingAppend {
  streamId: string;
  rows: SerializedEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (err: unknown) => void;
}

interface SerializedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

type Outcome = { ok: true; value: AppendResult } | { ok: false; error: unknown };

/** Row as returned by `.raw()`: position, stream_id, revision, event_id, type, data, metadata. */
type EventRow = [number, string, number, string, string, string, string];

const SELECT_COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata';
const DEFAULT_BATCH = 1000;
const SUBSCRIPTION_BATCH = 500;

function parseColumn(r: EventRow, column: 5 | 6): unknown {
  try {
    return JSON.parse(r[column]) as unknown;
  } catch (e) {
    const what = column === 5 ? 'ses données' : 'ses métadonnées';
    throw new UnreadableEventError(
      BigInt(r[0]),
      r[1],
      r[4],
      `${what} ne sont pas du JSON valide (${(e as Error).message})`,
    );
  }
}

function rowToEvent(r: EventRow): RecordedEvent {
  return {
    id: r[3],
    type: r[4],
    data: parseColumn(r, 5),
    metadata: parseColumn(r, 6) as RecordedEvent['metadata'],
    streamId: r[1],
    revision: r[2],
    position: BigInt(r[0]),
  };
}

/** SQLite's codes for a file that is not a database, or a damaged one. */
const DAMAGE_CODES = new Set([
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
  'SQLITE_CORRUPT_INDEX',
  'SQLITE_CORRUPT_SEQUENCE',
  'SQLITE_IOERR_SHORT_READ',
]);
export const isSqliteDamage = (e: unknown): boolean => DAMAGE_CODES.has(String((e as { code?: unknown })?.code));

/** Makes a folder's entries durable (a file created in it); a file system that refuses is left as it is. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // some file systems refuse to fsync a folder
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The insert failed on a unique column of the stream: `event_id` (the event is already stored) or
 * `revision` (SQLite names the columns of the failed constraint in its message).
 */
const isTaken = (e: unknown, column: 'event_id' | 'revision'): boolean =>
  (e as { code?: unknown })?.code === 'SQLITE_CONSTRAINT_UNIQUE' && (e as Error).message.includes(`events.${column}`);

function checkExpected(expected: ExpectedRevision): void {
  if (typeof expected === 'number' && (!Number.isSafeInteger(expected) || expected < 0)) {
    throw new RangeError(`Expected revision must be a non-negative integer, got ${expected}`);
  }
}

/**
 * EventStore on one SQLite file, in WAL mode. An acknowledged append survives a crash of the
 * process or of the machine: it is answered only once the write-ahead log holding it is fsynced.
 *
 * Appends are queued and written by a group commit: everything queued before the next turn of the
 * event loop goes into one transaction, each append checked on its own. The transaction is
 * committed to the write-ahead log on the event loop without an fsync (`synchronous = NORMAL`,
 * under which SQLite still syncs around its checkpoints), and the store fsyncs the log file itself
 * in libuv's thread pool before it answers the group's appends: what `synchronous = FULL` did at
 * each commit, without holding the event loop for the disk. One fsync in flight at a time: the
 * appends made meanwhile wait, and are committed together, in one transaction, once it is done
 * (they would wait for the next fsync anyway), then fsynced by the next one.
 *
 * Subscriptions deliver an event only once it is durable, so that nothing built on the log (read
 * models, pushes, gift credits) shows an event a power cut could still take back; the events this
 * store wrote lately are given to them from memory, decoded once for all. Reads of streams
 * (`readStream`, `readAll`) see every committed event: a command that decides on one appends after
 * it in the same log, so its own answer, once durable, makes the earlier event durable too.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly retryInitialMs: number;
  private readonly retryMaxMs: number;
  private readonly maxGroupSize: number;
  private readonly publishDurable: DurableMark | undefined;
  private readonly followDurable: DurableMark | undefined;

  private readonly headStmt: Database.Statement<[string], number>;
  private readonly findIdStmt: Database.Statement<[string, string], [number, number]>;
  private readonly insertStmt: Database.Statement<[string, number, string, string, string, string]>;
  private readonly readStreamStmt: Database.Statement<[string, number], EventRow>;
  private readonly readAllStmt: Database.Statement<[number, number], EventRow>;
  private readonly readDurableStmt: Database.Statement<[number, number, number], EventRow>;
  private readonly lastPositionStmt: Database.Statement<[], number | null>;
  private readonly dataVersionStmt: Database.Statement<[], number>;
  private readonly groupTx: Database.Transaction<(batch: PendingAppend[]) => Outcome[]>;
  private readonly appendManyTx: (p: PendingAppend) => AppendResult;

  private queue: PendingAppend[] = [];
  private flushScheduled = false;
  private closed = false;
  private readonly subscriptions = new Set<LiveSubscription>();
  private readonly commitListeners = new Set<() => void>();
  private readonly stats: CommitStats = { transactions: 0, appends: 0, events: 0, syncs: 0 };

  /** the write-ahead log's path (undefined for an in-memory database: nothing to make durable) */
  private readonly walPath: string | undefined;
  private walFd: number | undefined;
  private readonly syncFile: NonNullable<SqliteEventStoreOptions['syncFile']>;
  /** committed by the transactions since the last fsync started, waiting for the next one */
  private unsynced: Unsynced = { settle: [], fail: [], written: [] };
  /** the events written by the transaction under way */
  private groupWritten: RecentEvent[] = [];
  /**
   * the durable events this store wrote lately, in log order (with gaps where other processes
   * wrote): a subscription reads them from here, decoded once for all, instead of from the file
   */
  private recent: RecentEvent[] = [];
  /** the fsync under way, if any */
  private syncing: Promise<void> | undefined;
  /** appends were queued during the fsync under way: commit them when it is done */
  private flushAfterSync = false;
  /** the first position written by the transaction under way */
  private firstOfGroup: number | undefined;
  /** the first position committed since the last fsync started (undefined: none) */
  private firstPending: number | undefined;
  /** the first position the fsync under way makes durable (undefined: none) */
  private firstSyncing: number | undefined;
  /** what `publishDurable` was last set to */
  private published = DurableMark.NONE;
  /**
   * The last revision of streams this store read or wrote lately (-1: no event), so that reading a
   * stream past its end, or appending to it, asks the file nothing. It holds while no other
   * connection writes the file: SQLite's `data_version` tells, and is asked at every group commit
   * and at most once per turn of the event loop before a read relies on it (see `readStream`).
   */
  private readonly heads = new Map<string, number>();
  /** the heads written by the transaction under way, kept once it commits */
  private groupHeads = new Map<string, number>();
  /** `data_version` when `heads` was last known to hold */
  private headsVersion: number | undefined;
  /** `heads` was checked in this turn of the event loop */
  private headsChecked = false;

  constructor(filePath: string, options: SqliteEventStoreOptions = {}) {
    const inMemory = filePath === '' || filePath === ':memory:' || filePath.startsWith('file::memory:');
    this.walPath = inMemory ? undefined : `${path.resolve(filePath)}-wal`;
    this.syncFile = options.syncFile ?? fsync;
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.retryInitialMs = options.retryInitialMs ?? 100;
    this.retryMaxMs = options.retryMaxMs ?? 5000;
    this.maxGroupSize = options.maxGroupSize ?? 512;
    this.publishDurable = options.publishDurable;
    this.followDurable = options.followDurable;
    makePrivateDatabaseFile(filePath);
    this.db = new Database(filePath, { timeout: options.busyTimeoutMs ?? 5000 });
    try {
      this.createSchema();
    } catch (e) {
      this.db.close();
      if (isSqliteDamage(e)) {
        throw new DataFileError(
          filePath,
          `Le journal d'événements n'est pas une base SQLite lisible (${(e as Error).message}) : son en-tête ou ses pages sont endommagés.`,
          DAMAGED_LOG_ADVICE,
        );
      }
      throw e;
    }

    this.headStmt = this.db
      .prepare<[string], number>('SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1')
      .pluck();
    this.findIdStmt = this.db
      .prepare<[string, string], [number, number]>(
        'SELECT position, revision FROM events WHERE stream_id = ? AND event_id = ?',
      )
      .raw();
    this.insertStmt = this.db.prepare(
      'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.readStreamStmt = this.db
      .prepare<[string, number], EventRow>(
        `SELECT ${SELECT_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision`,
      )
      .raw();
    this.readAllStmt = this.db
      .prepare<[number, number], EventRow>(
        `SELECT ${SELECT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
      )
      .raw();
    this.readDurableStmt = this.db
      .prepare<[number, number, number], EventRow>(
        `SELECT ${SELECT_COLUMNS} FROM events WHERE position > ? AND position < ? ORDER BY position LIMIT ?`,
      )
      .raw();
    this.lastPositionStmt = this.db.prepare<[], number | null>('SELECT MAX(position) FROM events').pluck();
    this.dataVersionStmt = this.db.prepare<[], number>('PRAGMA data_version').pluck();

    // Nested better-sqlite3 transactions are savepoints: a multi-event append that fails half-way
    // rolls back alone, its neighbours in the group still commit.
    this.appendManyTx = this.db.transaction((p: PendingAppend) => this.appendOne(p));
    this.groupTx = this.db.transaction((batch: PendingAppend[]) => {
      const outcomes: Outcome[] = [];
      this.checkHeads();
      for (const p of batch) {
        try {
          let value: AppendResult;
          try {
            // One INSERT is atomic by itself, so single-event appends skip the savepoint.
            value = p.rows.length === 1 ? this.appendOne(p) : this.appendManyTx(p);
          } catch (error) {
            // an event of the append is already stored (the append's rows are taken back): a retry?
            if (!isTaken(error, 'event_id') || !this.db.inTransaction) throw error;
            value = this.appendAgain(p, this.headOf(p.streamId));
          }
          outcomes.push({ ok: true, value });
        } catch (error) {
          // SQLite rolls the whole transaction back on I/O, full-disk or busy errors: then the group fails.
          if (!this.db.inTransaction) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      return outcomes;
    });
    if (this.followDurable) void this.followMark(this.followDurable);
  }

  /** A follower: its subscriptions read again each time the appending thread's mark moves. */
  private async followMark(mark: DurableMark): Promise<void> {
    while (!this.closed) {
      const seen = mark.changes();
      for (const s of this.subscriptions) s.wake();
      await mark.changedSince(seen, this.pollIntervalMs);
    }
  }

  /** WAL, and the one table (created on a new file). */
  private createSchema(): void {
    this.db.pragma('journal_mode = WAL');
    // NORMAL syncs only around checkpoints: the store fsyncs the log itself after each group
    // commit, off the event loop, before acknowledging (see the class comment)
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position INTEGER PRIMARY KEY,
        stream_id TEXT NOT NULL,
        revision INTEGER NOT NULL,
        event_id TEXT NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        metadata TEXT NOT NULL,
        UNIQUE (stream_id, revision)
      );
      CREATE UNIQUE INDEX IF NOT EXISTS events_stream_event_id ON events (stream_id, event_id);
    `);
  }

  /**
   * SQLite's own check of the file's pages and indexes (`PRAGMA quick_check`): [] when sound,
   * else its first findings.
   */
  checkIntegrity(maxFindings = 5): string[] {
    this.assertOpen();
    const rows = this.db.pragma(`quick_check(${maxFindings})`, { simple: false }) as Array<{ quick_check: string }>;
    const findings = rows.map((r) => r.quick_check);
    return findings.length === 1 && findings[0] === 'ok' ? [] : findings;
  }

  /**
   * SQLite's `data_version` on this connection: it changes when, and only when, another connection
   * (another process, or a tool) committed to the file since the last call; this store's own
   * commits leave it as it is.
   */
  dataVersion(): number {
    this.assertOpen();
    return this.dataVersionStmt.get()!;
  }

  /**
   * Checkpoints happen only when `checkpoint()` is called (or, with `false`, again by themselves
   * once the write-ahead log holds 1000 pages, SQLite's default): for a caller that must know
   * every moment this connection writes into the main file.
   */
  manualCheckpoints(on: boolean): void {
    this.assertOpen();
    this.db.pragma(`wal_autocheckpoint = ${on ? 0 : 1000}`);
  }

  /**
   * A PASSIVE checkpoint: copies into the main file what the write-ahead log holds, as far as no
   * reader still needs the log's older pages, without waiting for anyone. `complete`: the whole
   * log was copied (the next append then starts the log over, so it stays small).
   */
  checkpoint(): { complete: boolean; walFrames: number; copied: number } {
    this.assertOpen();
    const [row] = this.db.pragma('wal_checkpoint(PASSIVE)') as Array<{
      busy: number;
      log: number;
      checkpointed: number;
    }>;
    return { complete: row.busy === 0 && row.log === row.checkpointed, walFrames: row.log, copied: row.checkpointed };
  }

  /**
   * `listener` runs right after each transaction of appends this store commits, on this thread
   * (it must not throw); the answer removes it.
   */
  onCommit(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** The file's schema (its tables, indexes and triggers as SQLite stores them), in one string. */
  schemaText(): string {
    this.assertOpen();
    const rows = this.db
      .prepare<[], [string, string, string, string | null]>(
        'SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name',
      )
      .raw()
      .all();
    return JSON.stringify(rows);
  }

  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('SqliteEventStore is closed'));
    let rows: SerializedEvent[];
    try {
      checkExpected(expected);
      if (events.length === 0) throw new RangeError(`Append to ${streamId} needs at least one event`);
      const ids = new Set<string>();
      rows = events.map((e) => {
        if (ids.has(e.id)) throw new RangeError(`Event id ${e.id} appears twice in one append to ${streamId}`);
        ids.add(e.id);
        // Serialize now: a bad payload fails this call only, and later mutations by the caller do not leak in.
        return {
          id: e.id,
          type: e.type,
          data: JSON.stringify(e.data) ?? 'null',
          metadata: JSON.stringify(e.metadata ?? {}),
        };
      });
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ streamId, rows, expected, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // setImmediate (not a microtask) so that appends issued by promise continuations of the
        // previous group also join the next one.
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    // while the log is being fsynced, appends wait and are committed together once it is done:
    // they would wait for the next fsync anyway, and one larger transaction writes fewer pages
    if (this.syncing) this.flushAfterSync = true;
    else this.writeQueued();
  };

  private writeQueued(): void {
    while (this.queue.length > 0) {
      const batch = this.queue.length <= this.maxGroupSize ? this.queue : this.queue.slice(0, this.maxGroupSize);
      this.queue = batch === this.queue ? [] : this.queue.slice(this.maxGroupSize);
      this.writeGroup(batch);
    }
  }

  private writeGroup(batch: PendingAppend[]): void {
    let outcomes: Outcome[];
    this.firstOfGroup = undefined;
    this.groupWritten = [];
    this.groupHeads.clear();
    try {
      outcomes = this.groupTx.immediate(batch);
    } catch (err) {
      this.firstOfGroup = undefined;
      this.publishMark();
      for (const p of batch) p.reject(err);
      return;
    }
    for (const [streamId, head] of this.groupHeads) this.knowHead(streamId, head);
    this.stats.transactions++;
    for (const listener of this.commitListeners) listener();
    this.firstPending ??= this.firstOfGroup;
    this.firstOfGroup = undefined;
    this.publishMark();
    for (const w of this.groupWritten) this.unsynced.written.push(w);
    for (let i = 0; i < batch.length; i++) {
      const o = outcomes[i];
      if (o.ok) {
        this.stats.appends++;
        this.stats.events += batch[i].rows.length;
        // answered once durable, idempotent answers too (their events may be in a group not yet synced)
        const { resolve, reject } = batch[i];
        const value = o.value;
        this.unsynced.settle.push(() => resolve(value));
        this.unsynced.fail.push(reject);
      } else {
        batch[i].reject(o.error);
      }
    }
    if (this.unsynced.settle.length > 0) this.syncLog();
  }

  /** The first position committed and not yet durable: subscriptions deliver only what is before it. */
  private firstNotDurable(): number {
    return this.firstSyncing ?? this.firstPending ?? DurableMark.NONE;
  }

  /** `publishDurable` set to the first position committed (or being committed) and not fsynced. */
  private publishMark(): void {
    if (!this.publishDurable) return;
    const first = Math.min(this.firstNotDurable(), this.firstOfGroup ?? DurableMark.NONE);
    if (first === this.published) return;
    this.published = first;
    this.publishDurable.set(first);
  }

  /**
   * Fsyncs the write-ahead log for everything committed, then answers those appends; while one
   * fsync is under way, the transactions committed meanwhile wait for the next.
   */
  private syncLog(): void {
    if (this.syncing) return;
    const group = this.unsynced;
    this.unsynced = { settle: [], fail: [], written: [] };
    this.firstSyncing = this.firstPending;
    this.firstPending = undefined;
    this.syncing = this.fsyncWal()
      .then(
        () => {
          this.stats.syncs++;
          this.remember(group.written);
          for (const settle of group.settle) settle();
        },
        // whether the log keeps these appends is unknown: their callers may retry, an append is
        // idempotent by event id
        (err: unknown) => {
          for (const fail of group.fail) fail(err);
        },
      )
      .finally(() => {
        this.syncing = undefined;
        this.firstSyncing = undefined;
        this.publishMark();
        for (const s of this.subscriptions) s.wake();
        if (this.flushAfterSync) {
          this.flushAfterSync = false;
          this.writeQueued();
        }
        if (this.unsynced.settle.length > 0) this.syncLog();
      });
  }

  /** Keeps durable events this store wrote for its subscriptions (the latest RECENT_EVENTS). */
  private remember(written: RecentEvent[]): void {
    for (const w of written) this.recent.push(w);
    if (this.recent.length > 2 * RECENT_EVENTS) this.recent = this.recent.slice(-RECENT_EVENTS);
  }

  /**
   * The events right after `after` when they are among the recent ones (at most `limit`, as far as
   * their positions follow each other: at a gap another process wrote, and the file is read).
   */
  private recentAfter(after: number, limit: number): RecordedEvent[] | undefined {
    const recent = this.recent;
    let lo = 0;
    let hi = recent.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (recent[mid].position <= after) lo = mid + 1;
      else hi = mid;
    }
    if (lo === recent.length || recent[lo].position !== after + 1) return undefined;
    const out: RecordedEvent[] = [];
    for (let i = lo; i < recent.length && out.length < limit && recent[i].position === after + 1 + out.length; i++) {
      const r = recent[i];
      r.event ??= {
        id: r.row.id,
        type: r.row.type,
        data: JSON.parse(r.row.data) as unknown,
        metadata: JSON.parse(r.row.metadata) as RecordedEvent['metadata'],
        streamId: r.streamId,
        revision: r.revision,
        position: BigInt(r.position),
      };
      out.push(r.event);
    }
    return out;
  }

  /** One fsync of the write-ahead log file (opened at the first; its folder fsynced then, for its entry). */
  private fsyncWal(): Promise<void> {
    if (this.walPath === undefined) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      try {
        if (this.walFd === undefined) {
          const fd = openSync(this.walPath!, 'r');
          syncFolder(path.dirname(this.walPath!));
          this.walFd = fd;
        }
      } catch (err) {
        reject(err);
        return;
      }
      this.syncFile(this.walFd, (err) => (err ? reject(err) : resolve()));
    });
  }

  /** Runs inside the group transaction; throws before writing anything when a check fails. */
  private appendOne(p: PendingAppend): AppendResult {
    const head = this.headOf(p.streamId);
    const e = p.expected;
    const ok = e === 'any' || (e === 'no_stream' ? head === -1 : e === 'stream_exists' ? head >= 0 : head === e);
    // not where the caller expected: unless it is a retry of an append already stored, a conflict
    if (!ok) return this.appendAgain(p, head);

    let revision = head;
    let position = 0;
    const written: RecentEvent[] = [];
    for (const row of p.rows) {
      revision++;
      try {
        position = Number(
          this.insertStmt.run(p.streamId, revision, row.id, row.type, row.data, row.metadata).lastInsertRowid,
        );
      } catch (err) {
        // the revision is taken although the head said otherwise: forget the head, the caller decides again
        if (!isTaken(err, 'revision')) throw err;
        this.heads.delete(p.streamId);
        this.groupHeads.delete(p.streamId);
        throw new WrongExpectedRevisionError(p.streamId, e, undefined);
      }
      written.push({ position, streamId: p.streamId, revision, row });
    }
    // all inserted (a failure above throws, and the append's savepoint takes its rows back)
    if (this.firstOfGroup === undefined) {
      this.firstOfGroup = written[0].position;
      // before the commit: a follower that sees these rows sees the mark below them
      this.publishMark();
    }
    for (const w of written) this.groupWritten.push(w);
    this.groupHeads.set(p.streamId, revision);
    return { nextRevision: revision, position: BigInt(position), written: true };
  }

  /**
   * Idempotency by event id, for an append that cannot be written as it is (expected revision
   * passed, or an event id already in the stream): all its events already stored → success without
   * writing; otherwise a conflict.
   */
  private appendAgain(p: PendingAppend, head: number): AppendResult {
    let found = 0;
    let foundPosition = 0;
    for (const row of p.rows) {
      const hit = this.findIdStmt.get(p.streamId, row.id);
      if (hit !== undefined) {
        found++;
        if (hit[0] > foundPosition) foundPosition = hit[0];
      }
    }
    if (found === p.rows.length) return { nextRevision: head, position: BigInt(foundPosition), written: false };
    throw new WrongExpectedRevisionError(p.streamId, p.expected, head);
  }

  /** A stream's last revision (-1: no event): from the transaction under way, memory, or the file. */
  private headOf(streamId: string): number {
    return this.groupHeads.get(streamId) ?? this.heads.get(streamId) ?? this.headStmt.get(streamId) ?? -1;
  }

  private knowHead(streamId: string, head: number): void {
    if (this.heads.size >= KNOWN_HEADS && !this.heads.has(streamId)) this.heads.clear();
    this.heads.set(streamId, head);
  }

  /** Forgets every known head when another connection has written the file since they were learnt. */
  private checkHeads(): void {
    const version = this.dataVersionStmt.get();
    if (version !== this.headsVersion) {
      this.heads.clear();
      this.headsVersion = version;
    }
  }

  /**
   * Before a read relies on the known heads: checked once per turn of the event loop, so a read may
   * miss what another process committed earlier in the same turn, as if it had been made at the
   * turn's start (appends check again in their transaction: a decision on such a read conflicts).
   */
  private headsForRead(): Map<string, number> {
    if (!this.headsChecked) {
      this.checkHeads();
      this.headsChecked = true;
      setImmediate(this.endOfTurn);
    }
    return this.heads;
  }

  private readonly endOfTurn = (): void => {
    this.headsChecked = false;
  };

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    this.assertOpen();
    const head = this.headsForRead().get(streamId);
    if (head !== undefined && fromRevision > head) return [];
    const rows = this.readStreamStmt.all(streamId, fromRevision);
    if (rows.length > 0) this.knowHead(streamId, rows[rows.length - 1][2]);
    else if (fromRevision <= 0) this.knowHead(streamId, -1);
    return rows.map(rowToEvent);
  }

  async *readAll(from?: LogPosition, batchSize = DEFAULT_BATCH): AsyncIterable<RecordedEvent[]> {
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`Bad batch size ${batchSize}`);
    let after = from === undefined ? 0 : Number(from);
    for (;;) {
      this.assertOpen();
      const rows = this.readAllStmt.all(after, batchSize);
      if (rows.length === 0) return;
      after = rows[rows.length - 1][0];
      yield rows.map(rowToEvent);
      if (rows.length < batchSize) return;
    }
  }

  /**
   * Synchronous read used by subscriptions: at most `limit` durable events strictly after `after`.
   * The events this store wrote lately come from memory, and every subscription is given the same
   * objects: handlers must not change the events they get. A subscription that has delivered the
   * last event this store wrote, and read the file less than half a poll interval ago, is told there is
   * nothing newer without asking the file: only another process could have written since, and the
   * next poll finds it (as does the next local append, at the gap its events leave).
   */
  private readBatch(after: number, limit: number, reader: { fileReadAt: number }): RecordedEvent[] {
    this.assertOpen();
    const fromMemory = this.recentAfter(after, limit);
    if (fromMemory) return fromMemory;
    const now = performance.now();
    const recent = this.recent;
    if (
      recent.length > 0 &&
      recent[recent.length - 1].position === after &&
      now - reader.fileReadAt < this.pollIntervalMs / 2
    ) {
      return [];
    }
    reader.fileReadAt = now;
    if (this.followDurable) {
      // the rows first, then the mark (see DurableMark)
      const rows = this.readAllStmt.all(after, limit);
      const bound = this.followDurable.firstNotDurable();
      let n = 0;
      while (n < rows.length && rows[n][0] < bound) n++;
      return rows.slice(0, n).map(rowToEvent);
    }
    return this.readDurableStmt.all(after, this.firstNotDurable(), limit).map(rowToEvent);
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions = {}): SubscriptionHandle {
    this.assertOpen();
    const sub: LiveSubscription = new LiveSubscription(
      handler,
      options,
      (after): RecordedEvent[] => this.readBatch(after, SUBSCRIPTION_BATCH, sub),
      this.lastPositionStmt.get() ?? 0,
      { pollIntervalMs: this.pollIntervalMs, retryInitialMs: this.retryInitialMs, retryMaxMs: this.retryMaxMs },
      () => this.subscriptions.delete(sub),
    );
    this.subscriptions.add(sub);
    sub.start();
    return { stop: () => sub.stop() };
  }

  async lastPosition(): Promise<LogPosition | undefined> {
    this.assertOpen();
    const p = this.lastPositionStmt.get();
    return p === null || p === undefined ? undefined : BigInt(p);
  }

  commitStats(): CommitStats {
    return { ...this.stats };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Write what is queued before refusing new work, so no accepted append is left hanging.
    this.writeQueued();
    this.closed = true;
    while (this.syncing) await this.syncing;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (this.walFd !== undefined) closeSync(this.walFd);
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('SqliteEventStore is closed');
  }
}

/** Catch-up then live delivery; positions are plain numbers inside SQLite, bigint outside. */
class LiveSubscription extends PollingSubscription {
  private last: number;
  /** when this subscription last read the file (performance.now()): the store asks it again after half a poll interval */
  fileReadAt = -Infinity;

  constructor(
    handler: (event: RecordedEvent) => Promise<void>,
    options: SubscribeOptions,
    private readonly read: (after: number) => RecordedEvent[],
    /** head of the log at subscribe time: onCaughtUp fires once it is delivered */
    private readonly catchUpTarget: number,
    timing: SubscriptionTiming,
    onDone: () => void,
  ) {
    super(handler, options, timing, onDone);
    this.last = options.from === undefined ? 0 : Number(options.from);
  }

  protected async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        this.dirty = false;
        const batch = this.read(this.last);
        if (batch.length === 0) {
          this.markCaughtUp();
          await this.sleep(this.timing.pollIntervalMs, true);
          continue;
        }
        for (const event of batch) {
          if (this.stopped) return;
          await this.handler(event);
          this.last = Number(event.position);
          failures = 0;
          if (this.last >= this.catchUpTarget) this.markCaughtUp();
        }
      } catch (err) {
        await this.backOff(err, failures++);
      }
    }
  }
}
