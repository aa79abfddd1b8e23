import type { Pool as PgPool, PoolConfig, ClientConfig, Client as PgClient } from 'pg';
import { randomUUID } from 'node:crypto';
import type { EventMetadata, LogPosition, NewEvent, RecordedEvent } from '@evo/domain';
import { pg } from '../distributed-clients';
import { SERVER_AWAY_ERRNOS, ServiceUnavailableError } from '../services';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type SubscribeOptions,
  type SubscriptionHandle,
} from './port';
import { UnreadableEventError } from './data-file-error';
import { PollingSubscription, type SubscriptionTiming } from './polling-subscription';
import { inPgTransaction } from './pg-transaction';

export interface PostgresEventStoreOptions {
  /** connections of this process's pool; default 10 */
  poolSize?: number;
  /** how long opening a connection may take before the operation fails (ms); default 5000 */
  connectTimeoutMs?: number;
  /** how often a live subscription reads the log without a wake-up (ms); default 1000 */
  pollIntervalMs?: number;
  /** first delay before a failed subscription (or the listening connection) retries (ms); doubles; default 100 */
  retryInitialMs?: number;
  /** cap of those delays (ms); default 5000 */
  retryMaxMs?: number;
  /**
   * how long an append waits for a stream's lock that another session holds before it fails with
   * ServiceUnavailableError (ms); default 10,000. The appends it shared a statement with go on.
   */
  lockTimeoutMs?: number;
  /**
   * how long the server lets one of this store's sessions sit idle inside a transaction before it
   * ends it (ms); default 60,000. A replica lost mid-append (its machine gone, no TCP reset) would
   * otherwise keep its streams locked and every reader held back until TCP gives up, hours later.
   */
  idleInTransactionMs?: number;
}

/**
 * Positions are (transaction id, rank of the event in its transaction) in one bigint: the
 * transaction id (`xid8`) in the high bits, the rank in the low POSITION_RANK_BITS. Log order is
 * that pair's order, which the reads below make final before they hand anything out.
 */
export const POSITION_RANK_BITS = 24n;
/** most events one append may carry (the rank must fit its bits) */
const MAX_EVENTS_PER_APPEND = 2 ** Number(POSITION_RANK_BITS);
/** A transaction id past 2^39 would not fit a bigint position (at 2^32 transactions per epoch: 128 epochs). */
const MAX_XID = 1n << (63n - POSITION_RANK_BITS);

/**
 * append statements of one store on their way at once; the appends arriving meanwhile wait and go
 * together in the next (group commit: one round trip and one commit for all of them). More than
 * one, so that the server's cores share the work of a burst.
 */
const APPEND_GROUPS_IN_FLIGHT = 4;

const DEFAULT_BATCH = 1000;
const SUBSCRIPTION_BATCH = 500;
/** events decoded once for every subscription of the store (see `decoded`) */
const DECODED_KEPT = 4096;
/**
 * the other processes hear of this one's appends at most this long after their commit: the appends
 * committed meanwhile share one NOTIFY (each is a round trip, and the server's notify queue is one)
 */
const NOTIFY_EVERY_MS = 5;
/** the channel appends are announced on (NOTIFY, after their commit) */
const CHANNEL = 'evo_events';
/** schema of the tables below; a database holding a newer one is refused at start */
const SCHEMA_VERSION = 1;
/** pg_advisory_xact_lock key held while the schema is made (several services start together) */
const SCHEMA_LOCK = 7_512_026_028;

/**
 * The tables and the append function. `evo_streams` holds each stream's head: an append locks its
 * row, so appends to one stream are serialised (the expected revision is checked under that lock)
 * while appends to different streams run side by side.
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS evo_schema (version integer NOT NULL);
CREATE TABLE IF NOT EXISTS evo_streams (
  stream_id text PRIMARY KEY,
  head integer NOT NULL
);
CREATE TABLE IF NOT EXISTS evo_events (
  position bigint PRIMARY KEY,
  stream_id text NOT NULL,
  revision integer NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  data text NOT NULL,
  metadata text NOT NULL,
  UNIQUE (stream_id, revision)
);
CREATE UNIQUE INDEX IF NOT EXISTS evo_events_stream_event_id ON evo_events (stream_id, event_id);

-- One append, in the transaction of the statement that calls it, its events ranked from p_rank in
-- that transaction (the appends before it in the same transaction hold the ranks below). Answers:
--   'appended' with the new head and the position of the last event written;
--   'stored'   when every event id is already in the stream (a retry): the head, and the stored
--              position of the last of them; nothing written;
--   'conflict' with the stream's head (-1: no stream) when the expectation does not hold or only
--              some of the ids are stored; nothing written.
CREATE OR REPLACE FUNCTION evo_append_ranked(
  p_stream text, p_expected text, p_ids text[], p_types text[], p_data text[], p_metadata text[], p_rank bigint
) RETURNS TABLE (outcome text, head integer, last_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_head integer;
  v_found integer;
  v_found_position bigint;
  v_n integer := cardinality(p_ids);
  v_xid bigint;
  v_base bigint;
BEGIN
  SELECT s.head INTO v_head FROM evo_streams s WHERE s.stream_id = p_stream FOR UPDATE;
  IF NOT FOUND THEN
    -- a stream is made only by an append that may make it
    IF p_expected <> 'any' AND p_expected <> 'no_stream' THEN
      RETURN QUERY SELECT 'conflict'::text, -1, NULL::bigint;
      RETURN;
    END IF;
    -- (a concurrent first append waits here for the other's commit, then reads its head)
    INSERT INTO evo_streams (stream_id, head) VALUES (p_stream, -1) ON CONFLICT (stream_id) DO NOTHING;
    SELECT s.head INTO v_head FROM evo_streams s WHERE s.stream_id = p_stream FOR UPDATE;
  END IF;

  -- under the stream's lock: which of the ids are stored is exact
  SELECT count(*), max(e.position) INTO v_found, v_found_position
    FROM evo_events e WHERE e.stream_id = p_stream AND e.event_id = ANY (p_ids);
  IF v_found = v_n THEN
    RETURN QUERY SELECT 'stored'::text, v_head, v_found_position;
    RETURN;
  END IF;
  IF v_found > 0 OR NOT (
    p_expected = 'any'
    OR (p_expected = 'no_stream' AND v_head = -1)
    OR (p_expected = 'stream_exists' AND v_head >= 0)
    OR (p_expected ~ '^[0-9]+$' AND v_head = p_expected::integer)
  ) THEN
    RETURN QUERY SELECT 'conflict'::text, v_head, NULL::bigint;
    RETURN;
  END IF;

  v_xid := pg_current_xact_id()::text::bigint;
  IF v_xid >= ${MAX_XID} THEN
    RAISE EXCEPTION 'transaction id % past what a log position holds', v_xid;
  END IF;
  v_base := (v_xid << ${POSITION_RANK_BITS}) + p_rank;
  INSERT INTO evo_events (position, stream_id, revision, event_id, type, data, metadata)
    SELECT v_base + i - 1, p_stream, v_head + i, p_ids[i], p_types[i], p_data[i], p_metadata[i]
    FROM generate_subscripts(p_ids, 1) AS i;
  UPDATE evo_streams SET head = v_head + v_n WHERE stream_id = p_stream;
  RETURN QUERY SELECT 'appended'::text, v_head + v_n, v_base + v_n - 1;
END
$fn$;

-- One append alone in its transaction (the processes of an older EVO call it).
CREATE OR REPLACE FUNCTION evo_append(
  p_stream text, p_expected text, p_ids text[], p_types text[], p_data text[], p_metadata text[]
) RETURNS TABLE (outcome text, head integer, last_position bigint)
LANGUAGE sql AS $fn$
  SELECT * FROM evo_append_ranked(p_stream, p_expected, p_ids, p_types, p_data, p_metadata, 0)
$fn$;

-- Several appends in the transaction of the statement (group commit), each as evo_append answers
-- it, in the order given: the i-th takes p_counts[i] events of the flat arrays after those of the
-- ones before. Each is decided alone (a conflict writes nothing of its own and leaves the others);
-- the events written share the transaction's id, ranked in the order of the appends.
-- Only appends whose expectation is checked (a revision, no_stream) share a statement: the group's
-- transaction id is taken at its first lock, and an unchecked append ('any', 'stream_exists') that
-- then waited for a later stream could write after a transaction with a larger id had, putting a
-- stream's revisions out of order in the log; a checked one, decided on a revision already
-- committed (as every caller does), would find it gone instead.
CREATE OR REPLACE FUNCTION evo_append_group(
  p_streams text[], p_expected text[], p_counts integer[],
  p_ids text[], p_types text[], p_data text[], p_metadata text[]
) RETURNS TABLE (n integer, outcome text, head integer, last_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_from integer := 1;
  v_to integer;
  v_rank bigint := 0;
  r record;
BEGIN
  IF cardinality(p_streams) > 1 AND ('any' = ANY (p_expected) OR 'stream_exists' = ANY (p_expected)) THEN
    RAISE EXCEPTION 'an append expecting any or stream_exists goes alone, not in a group';
  END IF;
  FOR i IN 1 .. cardinality(p_streams) LOOP
    v_to := v_from + p_counts[i] - 1;
    SELECT * INTO r FROM evo_append_ranked(
      p_streams[i], p_expected[i], p_ids[v_from:v_to], p_types[v_from:v_to], p_data[v_from:v_to],
      p_metadata[v_from:v_to], v_rank);
    IF r.outcome = 'appended' THEN
      v_rank := v_rank + p_counts[i];
    END IF;
    n := i;
    outcome := r.outcome;
    head := r.head;
    last_position := r.last_position;
    RETURN NEXT;
    v_from := v_to + 1;
  END LOOP;
END
$fn$;
`;

/** The database holds a log written by a newer EVO: this one does not write to it. */
export class LogFormatError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `la base tient un journal d'événements au format ${found}, plus récent que celui de cette version d'EVO (${known}) : mettez EVO à jour`,
    );
    this.name = 'LogFormatError';
  }
}

const SELECT_COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata';

/**
 * The log after $1, with the horizon of the same statement's snapshot: every transaction whose id
 * is below the snapshot's xmin has ended, so no event below `horizon` can still appear. (In one
 * statement, pg_current_snapshot() is the snapshot the rows are read with.)
 */
const READ_AFTER_SQL = `
SELECT h.horizon, e.*
FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint << ${POSITION_RANK_BITS} AS horizon) h
LEFT JOIN LATERAL (
  SELECT ${SELECT_COLUMNS} FROM evo_events WHERE position > $1 ORDER BY position LIMIT $2
) e ON true`;

interface EventRow {
  position: string;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}

function parseColumn(r: EventRow, column: 'data' | 'metadata'): unknown {
  try {
    return JSON.parse(r[column]) as unknown;
  } catch (e) {
    const what = column === 'data' ? 'ses données' : 'ses métadonnées';
    throw new UnreadableEventError(
      BigInt(r.position),
      r.stream_id,
      r.type,
      `${what} ne sont pas du JSON valide (${(e as Error).message})`,
    );
  }
}

function rowToEvent(r: EventRow): RecordedEvent {
  return {
    id: r.event_id,
    type: r.type,
    data: parseColumn(r, 'data'),
    metadata: parseColumn(r, 'metadata') as EventMetadata,
    streamId: r.stream_id,
    revision: r.revision,
    position: BigInt(r.position),
  };
}

const connectTimeoutMs = (options: PostgresEventStoreOptions) => options.connectTimeoutMs ?? 5000;

/** What every session of a PostgresEventStore is opened with (exported for its tests). */
export function postgresSessionConfig(url: string, options: PostgresEventStoreOptions = {}): ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs(options),
    keepAlive: true,
    application_name: 'evo',
    lock_timeout: options.lockTimeoutMs ?? 10_000,
    idle_in_transaction_session_timeout: options.idleInTransactionMs ?? 60_000,
  };
}

/** SQLSTATE 55P03: a lock not granted within lock_timeout (another session holds it). */
const isLockTimeout = (err: unknown) => (err as { code?: unknown } | undefined)?.code === '55P03';

/** SQLSTATE classes and codes of a server gone, going or not yet there (not a fault of the query). */
const UNAVAILABLE_CODES = /^(08|57P0[1-3]|53300|53400|58030)/;
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Query read timeout|Connection ended|not queryable|Client was closed/i;

/** Did this error come from PostgreSQL being away (rather than from the query)? */
export function isPostgresUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (typeof e?.code === 'string' && (SERVER_AWAY_ERRNOS.has(e.code) || UNAVAILABLE_CODES.test(e.code))) return true;
  return typeof e?.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message);
}

/** The server away, or a lock it did not grant in time: for the caller, PostgreSQL is unavailable for now. */
function unavailable(err: unknown): unknown {
  return isPostgresUnavailable(err) || isLockTimeout(err) ? new ServiceUnavailableError('PostgreSQL', err) : err;
}

/** An append waiting for its group's statement. */
interface PendingAppend {
  streamId: string;
  expected: ExpectedRevision;
  expectedText: string;
  ids: string[];
  types: string[];
  data: string[];
  metadata: string[];
  resolve: (r: AppendResult) => void;
  reject: (e: unknown) => void;
}

/** Whether an append's expectation names a revision or no stream: only such appends share a statement (see evo_append_group). */
const checksRevision = (expected: ExpectedRevision) => typeof expected === 'number' || expected === 'no_stream';

function checkExpected(expected: ExpectedRevision): string {
  if (typeof expected === 'number') {
    if (!Number.isSafeInteger(expected) || expected < 0 || expected > 2 ** 31 - 1) {
      throw new RangeError(`Expected revision must be a non-negative integer, got ${expected}`);
    }
    return String(expected);
  }
  return expected;
}

/**
 * EventStore on PostgreSQL through `pg` (EVENTSTORE_URL=postgres://…). Several processes may share
 * the database: appends are optimistic per stream (the expected revision checked under the
 * stream's row lock), idempotent by event id (the whole stream is looked at), one transaction each,
 * which concurrent appends of one store share (group commit: one statement and one commit for
 * several appends, each still decided alone; see `sendAppends`).
 *
 * The log's order: a position drawn from a sequence is not commit order (a transaction may take
 * position 10, another 11 and commit first: a reader of "after 10" at that moment checkpoints 11
 * and never sees 10). So, as Emmett's PostgreSQL store does, each event's position is its
 * transaction's id (`xid8`, then its rank in the transaction), and a reader hands out only the
 * events below its snapshot's `xmin`: every transaction with a smaller id has ended, so what lies
 * below can no longer change, and `xmin` only grows. Events of a transaction still running under a
 * smaller id wait, with everything after them, until it ends: a checkpoint never passes an event
 * that can still appear. The price: a transaction left open on the server (any database of the
 * cluster, once it has written) holds the readers back until it ends. This store's own sessions
 * cannot leave one open for long: the server ends any of them idle inside a transaction
 * (`idleInTransactionMs`), and an append waits for a stream's lock at most `lockTimeoutMs`.
 *
 * Live subscriptions wake when an append of this process commits, on the NOTIFY other processes
 * send after theirs (one listening connection per store, reopened with backoff; sent outside the
 * append's transaction, as NOTIFY inside one serialises every commit on the server's notify
 * queue), and at least every `pollIntervalMs`. A subscription whose read fails (the server away)
 * reports it and retries with backoff from its last delivered position.
 *
 * PostgreSQL away: operations fail with ServiceUnavailableError (a French 503 at the HTTP layer).
 * An append is in one transaction: it is stored whole or not at all (with the appends it shared it
 * with), whether or not its answer came back (a retry with the same event ids is recognised).
 */
export class PostgresEventStore implements EventStore {
  private readonly pool: PgPool;
  private readonly pollIntervalMs: number;
  private readonly retryInitialMs: number;
  private readonly retryMaxMs: number;
  private readonly connectTimeoutMs: number;
  private readonly config: ClientConfig;
  private readonly subscriptions = new Set<PgSubscription>();
  private schemaReady: Promise<void> | undefined;
  private closed = false;
  private listener: Listener | undefined;
  /** named in this store's NOTIFYs: its own listener ignores them (its subscriptions were woken already) */
  private readonly instanceId = randomUUID();
  /**
   * events the subscriptions read lately, decoded once for all of them (by position): every
   * subscription of the process reads the same rows (handlers must not change the events they get)
   */
  private readonly decoded = new Map<string, RecordedEvent>();
  /** the final event that follows a position, as subscriptions read them lately (see `finalAfter`) */
  private readonly follows = new Map<string, RecordedEvent>();
  /** the subscriptions' reads under way, by the position they read after */
  private readonly reading = new Map<
    string,
    { wakes: number; read: Promise<{ events: RecordedEvent[]; unsettled: boolean }> }
  >();
  /** appends waiting for the next group (see `sendAppends`) */
  private readonly appendQueue: PendingAppend[] = [];
  private appendGroupsInFlight = 0;
  /** wake-ups so far (appends of this process, NOTIFYs of others) */
  private wakes = 0;
  /** a NOTIFY of this process's appends is being sent / another is due after it */
  private notifying = false;
  private notifyAgain = false;

  constructor(url: string, options: PostgresEventStoreOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.retryInitialMs = options.retryInitialMs ?? 100;
    this.retryMaxMs = options.retryMaxMs ?? 5000;
    this.connectTimeoutMs = connectTimeoutMs(options);
    this.config = postgresSessionConfig(url, options);
    const poolConfig: PoolConfig = { ...this.config, max: options.poolSize ?? 10, idleTimeoutMillis: 30_000 };
    this.pool = new (pg().Pool)(poolConfig);
    // an idle connection that breaks (the server restarted) is dropped by the pool; the next
    // query opens a new one: nothing to do but not crash
    this.pool.on('error', () => undefined);
  }

  /**
   * Connects and makes the tables (once per database, under a lock: several services may start at
   * once). Every operation waits for it; a start-up calls it first to fail early.
   */
  ready(): Promise<void> {
    this.schemaReady ??= this.makeSchema().catch((err: unknown) => {
      this.schemaReady = undefined;
      throw err;
    });
    return this.schemaReady;
  }

  private async makeSchema(): Promise<void> {
    await inPgTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('evo_schema')::text AS t`);
      if (exists.rows[0].t !== null) {
        const v = await client.query<{ version: number }>('SELECT max(version) AS version FROM evo_schema');
        const found = v.rows[0]?.version;
        if (found !== null && found !== undefined && found > SCHEMA_VERSION) {
          throw new LogFormatError(found, SCHEMA_VERSION);
        }
      }
      await client.query(SCHEMA_SQL);
      await client.query(
        'INSERT INTO evo_schema (version) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM evo_schema WHERE version = $1)',
        [SCHEMA_VERSION],
      );
    });
  }

  /** `name`: a prepared statement of each connection (parsed once per connection, not at every call) */
  private async query<R extends object>(text: string, values?: unknown[], name?: string): Promise<R[]> {
    if (this.closed) throw new Error('PostgresEventStore is closed');
    try {
      await this.ready();
      return (await this.pool.query<R>({ text, values, name })).rows;
    } catch (err) {
      throw unavailable(err);
    }
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const expectedText = checkExpected(expected);
    if (events.length === 0) throw new RangeError(`Append to ${streamId} needs at least one event`);
    if (events.length > MAX_EVENTS_PER_APPEND) {
      throw new RangeError(`An append holds at most ${MAX_EVENTS_PER_APPEND} events (${events.length} to ${streamId})`);
    }
    const ids: string[] = [];
    const types: string[] = [];
    const data: string[] = [];
    const metadata: string[] = [];
    const seen = new Set<string>();
    for (const e of events) {
      if (seen.has(e.id)) throw new RangeError(`Event id ${e.id} appears twice in one append to ${streamId}`);
      seen.add(e.id);
      ids.push(e.id);
      types.push(e.type);
      data.push(JSON.stringify(e.data) ?? 'null');
      metadata.push(JSON.stringify(e.metadata ?? {}));
    }
    if (this.closed) throw new Error('PostgresEventStore is closed');
    return new Promise<AppendResult>((resolve, reject) => {
      this.appendQueue.push({ streamId, expected, expectedText, ids, types, data, metadata, resolve, reject });
      this.sendAppends();
    });
  }

  /**
   * Group commit: at most APPEND_GROUPS_IN_FLIGHT statements of appends on their way; the appends
   * that arrive meanwhile go together in the next one (one transaction, one commit), each decided
   * alone. An append with nothing in flight goes at once: no delay is added to wait for others.
   */
  private sendAppends(): void {
    while (this.appendGroupsInFlight < APPEND_GROUPS_IN_FLIGHT && this.appendQueue.length > 0) {
      let events = 0;
      let taken = 0;
      while (taken < this.appendQueue.length) {
        const next = this.appendQueue[taken];
        const alone = !checksRevision(next.expected);
        events += next.ids.length;
        // an unchecked append goes alone (see evo_append_group)
        if (taken > 0 && (events > MAX_EVENTS_PER_APPEND || alone)) break;
        taken++;
        if (alone) break;
      }
      const group = this.appendQueue.splice(0, taken);
      this.appendGroupsInFlight++;
      void this.appendGroup(group).finally(() => {
        this.appendGroupsInFlight--;
        this.sendAppends();
      });
    }
  }

  private async appendGroup(group: PendingAppend[]): Promise<void> {
    // every transaction locks its streams' rows in stream id order (no deadlock between two groups);
    // appends to one stream keep their order (the sort is stable)
    const ordered = [...group].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
    let rows: Array<{ n: number; outcome: string; head: number; last_position: string | null }>;
    try {
      rows = await this.query(
        'SELECT n, outcome, head, last_position FROM evo_append_group($1, $2, $3, $4, $5, $6, $7) ORDER BY n',
        [
          ordered.map((p) => p.streamId),
          ordered.map((p) => p.expectedText),
          ordered.map((p) => p.ids.length),
          ordered.flatMap((p) => p.ids),
          ordered.flatMap((p) => p.types),
          ordered.flatMap((p) => p.data),
          ordered.flatMap((p) => p.metadata),
        ],
        'evo_append_group',
      );
    } catch (err) {
      // one transaction: none of the group is stored. Refused for one append's sake (a value the
      // server does not take, a stream another session keeps locked): each again alone, so that
      // only that one fails; the streams at once, so that a locked one does not make those after
      // it wait for its lock a second time (one stream's appends in their order)
      const forOneAppend = !(err instanceof ServiceUnavailableError) || isLockTimeout(err.cause);
      if (ordered.length > 1 && forOneAppend) {
        const byStream = new Map<string, PendingAppend[]>();
        for (const p of ordered) {
          const appends = byStream.get(p.streamId);
          if (appends) appends.push(p);
          else byStream.set(p.streamId, [p]);
        }
        await Promise.all(
          [...byStream.values()].map(async (appends) => {
            for (const p of appends) await this.appendGroup([p]);
          }),
        );
        return;
      }
      for (const p of ordered) p.reject(err);
      return;
    }
    if (rows.some((r) => r.outcome === 'appended')) this.announce();
    ordered.forEach((p, i) => {
      const r = rows[i];
      if (r.outcome === 'conflict') p.reject(new WrongExpectedRevisionError(p.streamId, p.expected, r.head));
      else p.resolve({ nextRevision: r.head, position: BigInt(r.last_position!), written: r.outcome === 'appended' });
    });
  }

  /** After a commit: this process's subscriptions read now; the other processes' on the NOTIFY. */
  private announce(): void {
    this.wakes++;
    for (const s of this.subscriptions) s.wake();
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = true;
    // one NOTIFY at a time per process: appends committed while one is on its way share the next
    void new Promise((r) => setTimeout(r, NOTIFY_EVERY_MS))
      .then(() => this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, this.instanceId]))
      .catch(() => undefined) // the readers' poll finds the events all the same
      .finally(() => {
        this.notifying = false;
        if (this.notifyAgain && !this.closed) {
          this.notifyAgain = false;
          this.announce();
        }
      });
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const rows = await this.query<EventRow>(
      `SELECT ${SELECT_COLUMNS} FROM evo_events WHERE stream_id = $1 AND revision >= $2 ORDER BY revision`,
      [streamId, fromRevision],
      'evo_read_stream',
    );
    return rows.map(rowToEvent);
  }

  /**
   * At most `limit` events after `after` that can no longer change (below the horizon), and
   * whether committed events lie past them that still can (a transaction with a smaller id is
   * running: read again shortly).
   */
  private async readFinal(
    after: bigint,
    limit: number,
    shared = false,
  ): Promise<{ events: RecordedEvent[]; unsettled: boolean }> {
    const rows = await this.query<EventRow & { horizon: string }>(
      READ_AFTER_SQL,
      [after.toString(), limit],
      'evo_read_after',
    );
    const events: RecordedEvent[] = [];
    if (rows.length === 0) return { events, unsettled: false };
    const horizon = BigInt(rows[0].horizon);
    for (const r of rows) {
      if (r.position === null) break; // the LEFT JOIN's empty row: nothing after `after`
      if (BigInt(r.position) >= horizon) return { events, unsettled: true };
      events.push(shared ? this.decodeShared(r) : rowToEvent(r));
    }
    return { events, unsettled: false };
  }

  private decodeShared(r: EventRow): RecordedEvent {
    let e = this.decoded.get(r.position);
    if (!e) {
      e = rowToEvent(r);
      this.decoded.set(r.position, e);
      // the oldest go first (a Map keeps insertion order)
      if (this.decoded.size > DECODED_KEPT) this.decoded.delete(this.decoded.keys().next().value!);
    }
    return e;
  }

  /**
   * The log after `from` up to its last event at the call, in final order: events of a
   * transaction that a smaller one still running could precede are waited for (briefly: until it
   * ends), never skipped.
   */
  async *readAll(from?: LogPosition, batchSize = DEFAULT_BATCH): AsyncIterable<RecordedEvent[]> {
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`Bad batch size ${batchSize}`);
    const target = await this.lastPosition();
    let after = from ?? -1n;
    if (target === undefined || after >= target) return;
    let batch: RecordedEvent[] = [];
    let waits = 0;
    while (after < target) {
      const { events, unsettled } = await this.readFinal(after, batchSize - batch.length);
      for (const e of events) {
        if (e.position > target) break;
        batch.push(e);
        after = e.position;
      }
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
      if (events.length > 0) {
        waits = 0;
        continue;
      }
      // nothing after `after` at all: the log ends there
      if (!unsettled) break;
      // what comes next is not final yet: the transaction it waits for ends within milliseconds, as a rule
      await sleep(Math.min(200, 2 * 2 ** waits++));
    }
    if (batch.length > 0) yield batch;
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions = {}): SubscriptionHandle {
    if (this.closed) throw new Error('PostgresEventStore is closed');
    const sub: PgSubscription = new PgSubscription(
      handler,
      options,
      this,
      {
        pollIntervalMs: this.pollIntervalMs,
        retryInitialMs: this.retryInitialMs,
        retryMaxMs: this.retryMaxMs,
      },
      () => this.subscriptions.delete(sub),
    );
    this.subscriptions.add(sub);
    this.listen();
    sub.start();
    return { stop: () => sub.stop() };
  }

  /** @internal the subscriptions' read */
  async readForSubscription(after: bigint): Promise<{ events: RecordedEvent[]; unsettled: boolean }> {
    const known = this.finalAfter(after);
    if (known.length > 0) return { events: known, unsettled: false };
    // subscriptions woken together at the same place share one query (one started before the
    // latest wake-up may miss what woke them: they ask again then)
    const key = after.toString();
    const under = this.reading.get(key);
    if (under && under.wakes === this.wakes) return under.read;
    const read = this.readShared(after).finally(() => {
      if (this.reading.get(key)?.read === read) this.reading.delete(key);
    });
    this.reading.set(key, { wakes: this.wakes, read });
    return read;
  }

  private async readShared(after: bigint): Promise<{ events: RecordedEvent[]; unsettled: boolean }> {
    const read = await this.readFinal(after, SUBSCRIPTION_BATCH, true);
    // what one subscription read, the others at the same place take without asking the server
    let prev = after;
    for (const e of read.events) {
      this.follows.set(prev.toString(), e);
      prev = e.position;
    }
    while (this.follows.size > DECODED_KEPT) this.follows.delete(this.follows.keys().next().value!);
    return read;
  }

  /**
   * Final events known to come right after `after`, in order, as a subscription of this store read
   * them (a read hands out final events only: nothing can appear between two of them later).
   */
  private finalAfter(after: bigint): RecordedEvent[] {
    const out: RecordedEvent[] = [];
    let e = this.follows.get(after.toString());
    while (e && out.length < SUBSCRIPTION_BATCH) {
      out.push(e);
      e = this.follows.get(e.position.toString());
    }
    return out;
  }

  /** Opens the listening connection once (for every subscription of this store). */
  private listen(): void {
    if (this.listener) return;
    this.listener = new Listener(
      () => new (pg().Client)(this.config),
      (payload) => {
        if (payload === this.instanceId) return;
        this.wakes++;
        for (const s of this.subscriptions) s.wake();
      },
      { retryInitialMs: this.retryInitialMs, retryMaxMs: this.retryMaxMs },
    );
    this.listener.start();
  }

  async lastPosition(): Promise<LogPosition | undefined> {
    const [r] = await this.query<{ p: string | null }>('SELECT max(position)::text AS p FROM evo_events');
    return r.p === null ? undefined : BigInt(r.p);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.closed = true;
    await this.listener?.stop();
    await this.pool.end().catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Catch-up then live delivery, from the last delivered position (kept across failures). */
class PgSubscription extends PollingSubscription {
  private last: bigint;

  constructor(
    handler: (event: RecordedEvent) => Promise<void>,
    options: SubscribeOptions,
    private readonly store: PostgresEventStore,
    timing: SubscriptionTiming,
    onDone: () => void,
  ) {
    super(handler, options, timing, onDone);
    this.last = options.from ?? -1n;
  }

  protected async run(): Promise<void> {
    let failures = 0;
    /** the log's last position at subscribe time: onCaughtUp once it is delivered */
    let target: bigint | undefined | null = null;
    /** reads in a row that found only events not yet final */
    let unsettledReads = 0;
    while (!this.stopped) {
      try {
        if (target === null) target = await this.store.lastPosition();
        this.dirty = false;
        const { events, unsettled } = await this.store.readForSubscription(this.last);
        failures = 0;
        if (events.length === 0) {
          if (!unsettled && (target === undefined || this.last >= target)) this.markCaughtUp();
          // not final yet: another transaction ends within milliseconds, as a rule
          const wait = unsettled ? Math.min(this.timing.pollIntervalMs, 5 * 2 ** unsettledReads++) : undefined;
          if (!unsettled) unsettledReads = 0;
          await this.sleep(wait ?? this.timing.pollIntervalMs, true);
          continue;
        }
        unsettledReads = 0;
        for (const event of events) {
          if (this.stopped) return;
          await this.handler(event);
          this.last = event.position;
          if (target !== undefined && target !== null && this.last >= target) this.markCaughtUp();
        }
        // a short batch was all there was when it was read: read again only once woken (an append
        // since, here or elsewhere), or at the next poll, not at once for an empty answer
        if (
          !unsettled &&
          events.length < SUBSCRIPTION_BATCH &&
          target !== undefined &&
          target !== null &&
          this.last >= target
        ) {
          await this.sleep(this.timing.pollIntervalMs, true);
        }
      } catch (err) {
        await this.backOff(err, failures++);
      }
    }
  }
}

/**
 * The connection that LISTENs for other processes' appends. Dropped (the server restarted, the
 * network cut), it is opened again with backoff; each (re)connection wakes the subscriptions, as
 * NOTIFYs sent meanwhile were lost.
 */
class Listener {
  private client: PgClient | undefined;
  private stopped = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly makeClient: () => PgClient,
    /** the NOTIFY's payload (undefined: a wake-up of the listener's own, after a (re)connection) */
    private readonly onNotify: (payload?: string) => void,
    private readonly timing: { retryInitialMs: number; retryMaxMs: number },
  ) {}

  start(): void {
    this.connecting = this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = this.makeClient();
    this.client = client;
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (this.client === client) this.client = undefined;
      this.retry();
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (n: { payload?: string }) => this.onNotify(n.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.failures = 0;
      // what was announced while no connection listened
      this.onNotify();
    } catch {
      drop();
    }
  }

  private retry(): void {
    if (this.stopped) return;
    const delay = Math.min(this.timing.retryMaxMs, this.timing.retryInitialMs * 2 ** this.failures++);
    this.timer = setTimeout(() => {
      this.connecting = this.connect();
    }, delay);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
