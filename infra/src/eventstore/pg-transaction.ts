import type { Pool, PoolClient } from 'pg';

/** `work` as one PostgreSQL transaction on a connection of `pool`: committed, or rolled back when it throws. */
export async function inPgTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
