// A MongoDB wire-protocol server for tests: MONGO_URL when given (a real MongoDB), otherwise a
// FerretDB v1.24.2 of the test's own (built once by tools/ferretdb/build.sh, SQLite backend in a
// temp directory, or PostgreSQL with FERRETDB_HANDLER=pg). Without Go the suites skip with a printed
// reason; on CI (CI=true) a FerretDB that cannot be built or started fails the run instead.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { builtOnFirstUse, endServer, goInstalled, lastOutputOf, repoRoot } from './go-servers';

export const FERRETDB_VERSION = 'v1.24.2';

export interface MongoServer {
  /** mongodb://… to hand to MongoClient / MongoReadStore */
  url: string;
  /** 'mongodb' when MONGO_URL was given, 'ferretdb' for a server of the test's own */
  kind: 'mongodb' | 'ferretdb';
  stop(): Promise<void>;
}

export type MongoServerAvailability = { ok: true } | { ok: false; reason: string };

/** The FerretDB binary, built on first use. Throws with the build's output when it cannot be built. */
export const ferretDbBinary = builtOnFirstUse('ferretdb', `FerretDB ${FERRETDB_VERSION}`, 15 * 60_000);

/**
 * Whether a wire-protocol server can be had here. On CI a missing Go is not a reason to skip:
 * the suites must run there, so they fail loudly instead.
 */
export function mongoServerAvailability(): MongoServerAvailability {
  if (process.env.MONGO_URL) return { ok: true };
  const ferretDb = ferretDbAvailability();
  return ferretDb.ok ? ferretDb : { ok: false, reason: `no MONGO_URL and ${ferretDb.reason}` };
}

/** Whether a FerretDB of our own can be started here (MONGO_URL aside); on CI always (it must). */
export function ferretDbAvailability(): MongoServerAvailability {
  if (process.env.CI === 'true') return { ok: true };
  const prebuilt = process.env.FERRETDB_BIN ?? path.join(repoRoot, `.cache/ferretdb/ferretdb-${FERRETDB_VERSION}`);
  if (existsSync(prebuilt) || goInstalled()) return { ok: true };
  return { ok: false, reason: `no Go to build FerretDB ${FERRETDB_VERSION}` };
}

/**
 * For the benchmarks, which compare the memory store with FerretDB itself (a given MONGO_URL is
 * not used): a FerretDB of their own, or why there is none here. Off CI a FerretDB that cannot be
 * built or started is a reason to skip; on CI it throws.
 */
export async function startFerretDbOrReason(): Promise<{ server: MongoServer } | { reason: string }> {
  const availability = ferretDbAvailability();
  if (!availability.ok) return { reason: availability.reason };
  try {
    return { server: await startFerretDb() };
  } catch (e) {
    if (process.env.CI === 'true') throw e;
    return { reason: (e instanceof Error ? e.message : String(e)).split('\n')[0] };
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`FerretDB exited (${child.exitCode}) before listening:\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`FerretDB did not listen on ${port} within 30 s:\n${output()}`);
    await sleep(50);
  }
}

export interface FerretDbOptions {
  /** 'sqlite' (default; a temp directory) or 'pg' (a database of its own on PostgreSQL at 127.0.0.1:5432) */
  handler?: 'sqlite' | 'pg';
  /** listen on this port (default: a free one) */
  port?: number;
  /** SQLite directory to use (default: a new temp directory, removed at stop) */
  dataDir?: string;
  /** more flags for the ferretdb program (e.g. --repl-set-name=rs0) */
  extraArgs?: string[];
}

/** Starts a FerretDB of its own. Stop it with `stop()` (the temp directory goes with it). */
export async function startFerretDb(
  options: FerretDbOptions = {},
): Promise<MongoServer & { pid: number; port: number }> {
  const binary = ferretDbBinary();
  const handler = options.handler ?? (process.env.FERRETDB_HANDLER === 'pg' ? 'pg' : 'sqlite');
  const port = options.port ?? (await freePort());
  const ownDir = options.dataDir === undefined;
  const dir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'evo-ferretdb-'));
  const pgDatabase = `evo_ferretdb_${process.pid}_${port}`;
  const backend =
    handler === 'pg'
      ? createPgDatabase(pgDatabase) && [
          `--handler=postgresql`,
          `--postgresql-url=postgres://127.0.0.1:5432/${pgDatabase}`,
        ]
      : [`--handler=sqlite`, `--sqlite-url=file:${dir}/`];
  const child = spawn(
    binary,
    [
      `--listen-addr=127.0.0.1:${port}`,
      '--debug-addr=-',
      `--state-dir=${dir}`,
      '--log-level=warn',
      ...backend,
      ...(options.extraArgs ?? []),
    ],
    { env: { ...process.env, FERRETDB_TELEMETRY: 'disable' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = lastOutputOf(child);
  try {
    await waitForPort(port, child, output);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  let stopped: Promise<void> | undefined;
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    kind: 'ferretdb',
    pid: child.pid!,
    port,
    stop: () =>
      (stopped ??= (async () => {
        await endServer(child);
        if (ownDir) rmSync(dir, { recursive: true, force: true });
        if (handler === 'pg') dropPgDatabase(pgDatabase);
      })()),
  };
}

function createPgDatabase(name: string): true {
  const r = spawnSync(
    'psql',
    ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-c', `CREATE DATABASE ${name}`],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`could not create PostgreSQL database ${name}: ${r.stderr}`);
  return true;
}

function dropPgDatabase(name: string): void {
  spawnSync('psql', [
    '-h',
    '127.0.0.1',
    '-U',
    'postgres',
    '-d',
    'postgres',
    '-c',
    `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
  ]);
}

/** MONGO_URL when given, otherwise a FerretDB of this test file's own. */
export async function startMongoServer(options: FerretDbOptions = {}): Promise<MongoServer> {
  const given = process.env.MONGO_URL;
  if (given) return { url: given, kind: 'mongodb', stop: async () => undefined };
  return startFerretDb(options);
}
