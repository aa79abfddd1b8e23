import { randomBytes } from 'node:crypto';
import type { Pool as PgPool } from 'pg';
import { pg } from '../distributed-clients';
import { KEY_BYTES, MemberKeyDestroyedError, type KeyStore } from './port';
import { PLATFORM_SECRET_ID } from './sqlite-key-store';

/**
 * The members' keys when the log is on PostgreSQL: a table of their own (`evo_member_keys`) beside
 * the log's. A destroy sets the key to NULL and then runs VACUUM FULL on this small table, which
 * rewrites it to new files without the dead row (plain VACUUM only marks its space reusable). The
 * server's WAL and any base backup or WAL archive still hold the old row until they are recycled
 * or expire (see docs/personal-data.md).
 */
export class PostgresKeyStore implements KeyStore {
  private readonly pool: PgPool;
  private schemaReady: Promise<void> | undefined;

  constructor(url: string) {
    this.pool = new (pg().Pool)({
      connectionString: url,
      max: 4,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      application_name: 'evo-keys',
    });
    this.pool.on('error', () => undefined);
  }

  /** Connects and makes the table; every operation waits for it. */
  ready(): Promise<void> {
    this.schemaReady ??= this.pool
      .query(
        `CREATE TABLE IF NOT EXISTS evo_member_keys (
           member_id text PRIMARY KEY,
           key bytea,
           destroyed_at timestamptz
         )`,
      )
      .then(
        () => undefined,
        (err: unknown) => {
          // two services creating the table at once: one of them gets a unique violation on the catalog
          if ((err as { code?: string }).code === '23505') return;
          this.schemaReady = undefined;
          throw err;
        },
      );
    return this.schemaReady;
  }

  private async row(id: string): Promise<{ key: Buffer | null } | undefined> {
    await this.ready();
    const r = await this.pool.query<{ key: Buffer | null }>('SELECT key FROM evo_member_keys WHERE member_id = $1', [
      id,
    ]);
    return r.rows[0];
  }

  private async keyOrMake(id: string): Promise<Buffer> {
    await this.ready();
    // made when missing; a concurrent maker's key wins, and every caller answers the stored one
    const r = await this.pool.query<{ key: Buffer | null }>(
      `WITH made AS (
         INSERT INTO evo_member_keys (member_id, key) VALUES ($1, $2)
         ON CONFLICT (member_id) DO NOTHING RETURNING key
       )
       SELECT key FROM made UNION ALL SELECT key FROM evo_member_keys WHERE member_id = $1 LIMIT 1`,
      [id, randomBytes(KEY_BYTES)],
    );
    const row = r.rows[0] ?? (await this.row(id));
    if (!row) throw new Error(`key of ${id} neither made nor found`);
    if (row.key === null) throw new MemberKeyDestroyedError(id);
    return row.key;
  }

  keyFor(memberId: string): Promise<Buffer> {
    return this.keyOrMake(memberId);
  }

  async find(memberId: string): Promise<Buffer | 'destroyed' | undefined> {
    const row = await this.row(memberId);
    if (!row) return undefined;
    return row.key ?? 'destroyed';
  }

  async destroy(memberId: string): Promise<void> {
    await this.ready();
    const r = await this.pool.query(
      `INSERT INTO evo_member_keys (member_id, key, destroyed_at) VALUES ($1, NULL, now())
       ON CONFLICT (member_id) DO UPDATE SET key = NULL, destroyed_at = now()
       WHERE evo_member_keys.key IS NOT NULL`,
      [memberId],
    );
    // the old row version (with the key) stays in the table's pages until rewritten
    if (r.rowCount) await this.pool.query('VACUUM FULL evo_member_keys');
  }

  platformSecret(): Promise<Buffer> {
    return this.keyOrMake(PLATFORM_SECRET_ID);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
