// PostgreSQL for tests: the server at PG_TEST_URL (default the machine's, postgres@127.0.0.1:5432,
// database evo_test, which .ci/run makes), in which each test file makes a database of its own and
// drops it afterwards. Off CI an unreachable server is a printed reason to skip; on CI (CI=true) it
// fails the run instead: these suites must run there.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const pgTestUrl = (): string => process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/evo_test';

/** `url` naming the database `name` (user, host, port and options kept). */
export function withPgDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export type PostgresAvailability = { ok: true } | { ok: false; reason: string };

/** Whether PostgreSQL answers at PG_TEST_URL; on CI a server that does not is an error, not a skip. */
export async function postgresAvailability(): Promise<PostgresAvailability> {
  const client = new pg.Client({ connectionString: pgTestUrl(), connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { ok: true };
  } catch (e) {
    const reason = `no PostgreSQL at ${pgTestUrl()} (${(e as Error).message})`;
    if (process.env.CI === 'true') throw new Error(`the PostgreSQL suites must run on CI: ${reason}`);
    return { ok: false, reason };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface TestDatabase {
  /** postgres://… of the database made for the caller */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A new empty database on the test server, named after `label` (dropped by `drop()`, connections and all). */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `evo_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: withPgDatabase(pgTestUrl(), name),
    name,
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgTestUrl(), connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}
