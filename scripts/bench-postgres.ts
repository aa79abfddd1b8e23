/**
 * PostgreSQL benchmark (not a test), issue 28's figures, on this machine's PostgreSQL
 * (127.0.0.1:5432, user postgres; PG_BENCH_URL overrides it), each row on a database of its own
 * made and dropped by the run:
 *
 * 1. Gift sends per second over HTTP, 32 concurrent clients (keep-alive), 2 s warm-up then 10 s:
 *    - EVO with its events in PostgreSQL: the real entry point bundled as `npm start` runs it
 *      (scripts/build-server.mjs), EVENTSTORE_URL=postgres://…, read models in SQLite, each client
 *      a member sending 1-coin gifts to 8 receivers; the ledger is reconciled after the load
 *      (every gift credited once);
 *    - the peer: the same gift send on Emmett 0.42.0 + PostgreSQL (bench/peers/emmett-postgresql,
 *      the same peer as bench-gifts, installed on first use), on the same server, in the same run.
 *    Goal (issue 28): EVO ≥ 2× the peer.
 * 2. Appends per second of the PostgreSQL adapter alone (PostgresEventStore, its default pool of
 *    10 connections), 32 appenders each appending one event at a time to streams of its own with
 *    the expected revision, next to a raw INSERT loop through pg (the same 32 loops, a pool of 10,
 *    one autocommitted INSERT of the same row shape into a plain table): what the adapter costs
 *    over the bare write. Each 2 s warm-up then 10 s.
 *
 *   npx tsx scripts/bench-postgres.ts [--seconds=10] [--clients=32] [--only=gifts,peer,appends]
 *
 * BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the EVO server.
 */
import { randomUUID } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PostgresEventStore } from '@evo/infra';
import { printGoal } from './lib/goals';
import { SERVER_BUNDLE, buildServer } from './build-server.mjs';
import {
  HttpClient,
  embeddedLoadEnv,
  freePort,
  load,
  registerMember,
  table,
  waitReady,
  type Call,
} from './lib/http-load';
import { listArg, loadRunArgs } from './lib/args';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, clients: CLIENTS, receivers: RECEIVERS } = loadRunArgs();
const ONLY = listArg('only', 'gifts,peer,appends');
const SERVER = process.env.PG_BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Row {
  scenario: string;
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  cpuPerRequestUs?: number;
}

/** A database of the run's own on the bench server (dropped by `drop`). */
async function database(label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `evo_bench_${label}_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: SERVER });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

function child(args: string[], cwd: string, env: Record<string, string>) {
  let out = '';
  const c = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  c.stdout?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  c.stderr?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  return { child: c, output: () => out };
}

async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

/** EVO (npm start's bundle) with its events in PostgreSQL; its senders funded; the load; the reconciliation. */
async function evoGiftSends(): Promise<{ row: Row; reconciled: string }> {
  const db = await database('evo');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'evo-bench-pg-'));
  const port = await freePort();
  await buildServer();
  // BENCH_NODE_ARGS (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof) go to the EVO server only
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // the embedded load's settings (no demo data, none of the per-member limits a load meets by
  // design: without them most sends were 429s), with the events in PostgreSQL
  const evo = child(['--enable-source-maps', ...nodeArgs, SERVER_BUNDLE], ROOT, {
    ...embeddedLoadEnv(dataDir, port),
    EVENTSTORE_URL: db.url,
    S3_ENDPOINT: '',
    SESSION_SECRET: 'bench-postgres-session-secret',
  });
  const clients: HttpClient[] = [];
  try {
    const base = new URL(`http://127.0.0.1:${port}`);
    await waitReady(new URL('/ready', base).href, evo.child, evo.output);
    process.stdout.write(`EVO (events in PostgreSQL) on ${base.href}: registering ${CLIENTS + RECEIVERS} members… `);
    const tag = Date.now().toString(36);
    const senders: Array<{ email: string; c: HttpClient }> = [];
    for (let i = 0; i < CLIENTS; i++) {
      const m = await registerMember(base, ROOT, `pg${tag}${i}`);
      const c = new HttpClient(base);
      clients.push(c);
      const l = await c.request('POST', '/api/auth/login', { email: m.email, password: m.password });
      if (l.status !== 200) throw new Error(`login ${l.status} ${JSON.stringify(l.json)}`);
      for (let k = 0; k < 3; k++) await c.request('POST', '/api/coins/add', { email: m.email, amount: 100_000 });
      senders.push({ email: m.email, c });
    }
    const receivers: string[] = [];
    for (let i = 0; i < RECEIVERS; i++) receivers.push((await registerMember(base, ROOT, `pg${tag}r${i}`)).email);
    console.log('done');
    let n = 0;
    const result = await load(
      senders.map(({ email, c }) => () => ({
        kind: 'gift',
        run: async (): Promise<true | string> => {
          const r = await c.request('POST', '/api/gifts/send', {
            sender_email: email,
            receiver_email: receivers[n++ % RECEIVERS],
            gift_id: 1,
          });
          return r.status === 200 || `${r.status} ${JSON.stringify(r.json).slice(0, 200)}`;
        },
      })),
      { warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, serverPid: evo.child.pid },
    );
    if (result.firstErrors.length > 0) console.log(`first refusals: ${result.firstErrors.join(' | ')}`);
    // every gift credited once, the ledger's invariants held
    const admin = new HttpClient(base);
    clients.push(admin);
    await admin.request('POST', '/api/auth/login', { email: 'admin@evo.local', password: 'evo-admin-2026' });
    let report: Record<string, unknown> = {};
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      report = (await admin.request('GET', '/api/admin/ledger/reconcile')).json;
      if ((report.pending_gifts as { count: number } | undefined)?.count === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (!report.ok) process.exitCode = 1;
    return {
      row: {
        scenario: `EVO gift sends, events in PostgreSQL (${CLIENTS} wallets)`,
        ...result.total,
        cpuPerRequestUs: result.cpuPerRequestUs,
      },
      reconciled: `reconciliation: ${report.ok ? 'OK' : 'FAILED'}, gifts still in transit: ${String((report.pending_gifts as { count: number } | undefined)?.count)}`,
    };
  } finally {
    clients.forEach((c) => c.close());
    await stopChild(evo.child);
    rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  }
}

/** The Emmett 0.42.0 + PostgreSQL peer of bench-gifts, on the same server. */
async function peerGiftSends(): Promise<Row | string> {
  const dir = path.join(ROOT, 'bench/peers/emmett-postgresql');
  if (!existsSync(path.join(dir, 'node_modules/@event-driven-io/emmett'))) {
    console.log('installing bench/peers/emmett-postgresql (npm ci)…');
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    if (r.status !== 0) return 'npm ci failed in bench/peers/emmett-postgresql';
  }
  const db = await database('peer');
  const port = await freePort();
  const peer = child(['server.mjs'], dir, { PORT: String(port), PG_URL: db.url });
  const clients = Array.from({ length: CLIENTS }, () => new HttpClient(new URL(`http://127.0.0.1:${port}`)));
  try {
    await waitReady(`http://127.0.0.1:${port}/health-does-not-exist`, peer.child, peer.output);
    for (let i = 0; i < CLIENTS; i++) {
      const r = await clients[i].request('POST', `/wallets/sender-${i}/credit`, { amount: 1_000_000 });
      if (r.status !== 200) throw new Error(`peer set-up: ${r.status} ${JSON.stringify(r.json)}`);
    }
    let k = 0;
    const result = await load(
      clients.map((c, i) => () => ({
        kind: 'gift',
        run: async (): Promise<true | string> => {
          const r = await c.request('POST', '/gifts/send', {
            sender: `sender-${i}`,
            receiver: `receiver-${k++ % RECEIVERS}`,
            amount: 1,
          });
          return r.status === 200 || `${r.status}`;
        },
      })),
      { warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, serverPid: peer.child.pid },
    );
    return {
      scenario: 'peer: Emmett 0.42.0 + PostgreSQL gift sends',
      ...result.total,
      cpuPerRequestUs: result.cpuPerRequestUs,
    };
  } finally {
    clients.forEach((c) => c.close());
    await stopChild(peer.child);
    await db.drop();
  }
}

/** `CLIENTS` loops of `step` for warm-up + SECONDS; the calls of the measured window count. */
async function appendLoad(scenario: string, step: (loop: number, n: number) => Promise<void>): Promise<Row> {
  const result = await load(
    Array.from({ length: CLIENTS }, (_, loop) => {
      let n = 0;
      return (): Call => ({
        kind: 'append',
        run: async () => {
          await step(loop, n++);
          return true;
        },
      });
    }),
    { warmupSeconds: WARMUP_SECONDS, seconds: SECONDS },
  );
  return { scenario, ...result.total };
}

async function appends(): Promise<Row[]> {
  const rows: Row[] = [];
  const db = await database('appends');
  try {
    const store = new PostgresEventStore(db.url);
    await store.ready();
    const run = randomUUID().slice(0, 8);
    const heads = new Map<number, number>();
    rows.push(
      await appendLoad(
        `PostgresEventStore appends (${CLIENTS} appenders, 1 event each, expected revision)`,
        async (loop) => {
          const head = heads.get(loop) ?? -1;
          const r = await store.append(
            `bench-${run}-${loop}`,
            [
              {
                id: randomUUID(),
                type: 'BenchAppended',
                data: { loop, n: head + 1, note: 'un événement de banc' },
                metadata: { correlationId: randomUUID(), at: new Date().toISOString() },
              },
            ],
            head < 0 ? 'no_stream' : head,
          );
          heads.set(loop, r.nextRevision);
        },
      ),
    );
    await store.close();

    const pool = new pg.Pool({ connectionString: db.url, max: 10 });
    // an idle connection the database's drop ends (its pool may still hold one) is no failure of the run
    pool.on('error', () => undefined);
    await pool.query(
      'CREATE TABLE raw_events (id bigserial PRIMARY KEY, stream_id text NOT NULL, revision integer NOT NULL, event_id text NOT NULL, type text NOT NULL, data text NOT NULL, metadata text NOT NULL)',
    );
    rows.push(
      await appendLoad(`raw INSERT loop through pg (${CLIENTS} loops, pool of 10, autocommit)`, async (loop, n) => {
        await pool.query(
          'INSERT INTO raw_events (stream_id, revision, event_id, type, data, metadata) VALUES ($1, $2, $3, $4, $5, $6)',
          [
            `bench-${run}-${loop}`,
            n,
            randomUUID(),
            'BenchAppended',
            JSON.stringify({ loop, n, note: 'un événement de banc' }),
            JSON.stringify({ correlationId: randomUUID(), at: new Date().toISOString() }),
          ],
        );
      }),
    );
    await pool.end();
  } finally {
    await db.drop();
  }
  return rows;
}

async function main() {
  const rows: Row[] = [];
  let evo: Row | undefined;
  let peer: Row | undefined;
  const notes: string[] = [];
  if (ONLY.includes('gifts')) {
    const r = await evoGiftSends();
    evo = r.row;
    rows.push(evo);
    notes.push(r.reconciled);
  }
  if (ONLY.includes('peer')) {
    const r = await peerGiftSends();
    if (typeof r === 'string') notes.push(`peer skipped: ${r}`);
    else rows.push((peer = r));
  }
  const appendRows = ONLY.includes('appends') ? await appends() : [];
  rows.push(...appendRows);

  console.log('');
  const [load1] = os.loadavg();
  console.log(
    `${CLIENTS} concurrent clients or appenders, ${WARMUP_SECONDS} s warm-up then ${SECONDS} s measured; node ${process.version}, ${os.cpus().length} CPU(s), load average ${load1.toFixed(1)}`,
  );
  console.log(
    table(
      ['scenario', 'per s', 'p50 ms', 'p99 ms', 'errors', 'server CPU/req'],
      rows.map((r) => [
        r.scenario,
        r.rate.toFixed(0),
        r.p50.toFixed(1),
        r.p99.toFixed(1),
        String(r.errors),
        r.cpuPerRequestUs === undefined ? '—' : `${(r.cpuPerRequestUs / 1000).toFixed(2)} ms`,
      ]),
    ),
  );
  for (const n of notes) console.log(n);
  if (evo && peer) {
    const ratio = evo.rate / peer.rate;
    printGoal(
      'EVO gift sends (events in PostgreSQL) vs Emmett 0.42.0 + PostgreSQL',
      `${evo.rate.toFixed(0)} vs ${peer.rate.toFixed(0)} sends/s (${ratio.toFixed(2)}×), errors ${evo.errors} vs ${peer.errors}`,
      '≥ 2× the peer, no errors on either side',
      // refused sends are fast: a rate with errors measures the refusals, not the sends
      ratio >= 2 && evo.errors === 0 && peer.errors === 0,
    );
  }
  if (appendRows.length === 2) {
    printGoal(
      'PostgresEventStore appends vs a raw INSERT loop through pg (32 each)',
      `${appendRows[0].rate.toFixed(0)} vs ${appendRows[1].rate.toFixed(0)} per s (${((appendRows[0].rate / appendRows[1].rate) * 100).toFixed(0)} %)`,
      'reference (no goal set)',
      undefined,
    );
  }
}

/** Whether the bench server answers; without one the benchmark says why and skips (exit 0). */
async function serverReason(): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 3000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('SELECT 1');
    return undefined;
  } catch (e) {
    return `no PostgreSQL at ${SERVER} (${(e as Error).message})`;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const reason = await serverReason();
if (reason) console.log(`bench-postgres: skipped (${reason})`);
else await main();
