import Database from 'better-sqlite3';
import type { Pool as PgPool } from 'pg';
import { pg } from '../distributed-clients';
import { inPgTransaction } from '../eventstore/pg-transaction';

/** A stored event as the migration reads and rewrites it: its data as the JSON text in the table. */
export interface RawEventRow {
  position: bigint;
  streamId: string;
  type: string;
  data: string;
}

/**
 * The log's table itself, for `npm run data:encrypt` (encryptLog) only: what the EventStore port
 * never allows, rewriting stored events' data and renaming streams, each call one transaction.
 */
export interface RawLog {
  /** how many events the log holds */
  count(): Promise<number>;
  /** the events after `after` (exclusive), in log order, at most `limit` */
  rowsAfter(after: bigint | undefined, limit: number): Promise<RawEventRow[]>;
  /** rewrites these events' data, all or none */
  updateData(rows: ReadonlyArray<{ position: bigint; data: string }>): Promise<void>;
  /** every stream id of the log */
  streamIds(): Promise<string[]>;
  /** renames a stream, all its events (and its head) or nothing */
  renameStream(from: string, to: string): Promise<void>;
  /** rewrites the table's files so that the old versions of rewritten rows are gone */
  compact(): Promise<void>;
  close(): Promise<void>;
}

/** The embedded log's file (`events.sqlite`), opened on its own connection. */
export class SqliteRawLog implements RawLog {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file, { fileMustExist: true, timeout: 10_000 });
    // freed cells (a row's old version) are overwritten with zeros, not left in the file
    this.db.pragma('secure_delete = ON');
    this.db.pragma('synchronous = FULL');
  }

  async count(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  }

  async rowsAfter(after: bigint | undefined, limit: number): Promise<RawEventRow[]> {
    const rows = this.db
      .prepare('SELECT position, stream_id, type, data FROM events WHERE position > ? ORDER BY position LIMIT ?')
      .safeIntegers(true)
      .all(after ?? -1n, BigInt(limit)) as Array<{ position: bigint; stream_id: string; type: string; data: string }>;
    return rows.map((r) => ({ position: r.position, streamId: r.stream_id, type: r.type, data: r.data }));
  }

  async updateData(rows: ReadonlyArray<{ position: bigint; data: string }>): Promise<void> {
    const update = this.db.prepare('UPDATE events SET data = ? WHERE position = ?');
    this.db.transaction(() => {
      for (const r of rows) update.run(r.data, r.position);
    })();
  }

  async streamIds(): Promise<string[]> {
    return (this.db.prepare('SELECT DISTINCT stream_id FROM events').pluck().all() as string[]).sort();
  }

  async renameStream(from: string, to: string): Promise<void> {
    this.db.prepare('UPDATE events SET stream_id = ? WHERE stream_id = ?').run(to, from);
  }

  async compact(): Promise<void> {
    this.db.exec('VACUUM');
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

/** A PostgreSQL log's tables (`evo_events`, `evo_streams`). */
export class PostgresRawLog implements RawLog {
  private readonly pool: PgPool;

  constructor(url: string) {
    this.pool = new (pg().Pool)({ connectionString: url, max: 2, application_name: 'evo-data-encrypt' });
    this.pool.on('error', () => undefined);
  }

  async count(): Promise<number> {
    return Number((await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM evo_events')).rows[0]!.n);
  }

  async rowsAfter(after: bigint | undefined, limit: number): Promise<RawEventRow[]> {
    const r = await this.pool.query<{ position: string; stream_id: string; type: string; data: string }>(
      'SELECT position::text, stream_id, type, data FROM evo_events WHERE position > $1 ORDER BY position LIMIT $2',
      [(after ?? -1n).toString(), limit],
    );
    return r.rows.map((x) => ({ position: BigInt(x.position), streamId: x.stream_id, type: x.type, data: x.data }));
  }

  private inTransaction(work: (client: import('pg').PoolClient) => Promise<void>): Promise<void> {
    return inPgTransaction(this.pool, work);
  }

  async updateData(rows: ReadonlyArray<{ position: bigint; data: string }>): Promise<void> {
    if (rows.length === 0) return;
    await this.inTransaction(async (c) => {
      await c.query(
        `UPDATE evo_events e SET data = u.data
         FROM unnest($1::bigint[], $2::text[]) AS u(position, data) WHERE e.position = u.position`,
        [rows.map((r) => r.position.toString()), rows.map((r) => r.data)],
      );
    });
  }

  async streamIds(): Promise<string[]> {
    return (
      await this.pool.query<{ stream_id: string }>('SELECT stream_id FROM evo_streams ORDER BY stream_id')
    ).rows.map((r) => r.stream_id);
  }

  async renameStream(from: string, to: string): Promise<void> {
    await this.inTransaction(async (c) => {
      await c.query('UPDATE evo_streams SET stream_id = $2 WHERE stream_id = $1', [from, to]);
      await c.query('UPDATE evo_events SET stream_id = $2 WHERE stream_id = $1', [from, to]);
    });
  }

  async compact(): Promise<void> {
    await this.pool.query('VACUUM FULL evo_events');
    await this.pool.query('VACUUM FULL evo_streams');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
