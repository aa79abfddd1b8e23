/**
 * Event-store benchmark (not a test): SqliteEventStore appends and replay next to raw better-sqlite3
 * doing the same work on the same table with the same pragmas, in the same run.
 *
 *   npx tsx scripts/bench-eventstore.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import cliProgress from 'cli-progress';
import { SqliteEventStore } from '@evo/infra';

const APPEND_EVENTS = 20_000;
const REPLAY_EVENTS = 1_000_000;

interface Row {
  label: string;
  adapter: number;
  raw: number;
  note: string;
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

function sampleData(i: number) {
  return {
    videoId: `v-${i % 5000}`,
    userId: `u-${i % 977}`,
    texte: `Commentaire n°${i} : très réussi, bravo à l’équipe !`,
    likes: i % 13,
  };
}

function sampleMetadata() {
  return { userId: 'u-1', correlationId: randomUUID(), causationId: randomUUID(), at: new Date().toISOString() };
}

/** A fresh file with the adapter's schema; raw runs reopen it with the same pragmas. */
function freshFile(dir: string, name: string): string {
  const file = join(dir, name);
  new SqliteEventStore(file).close();
  return file;
}

function openRaw(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  return db;
}

async function adapterAppends(
  file: string,
  appenders: number,
  maxGroupSize?: number,
): Promise<{ rate: number; perTx: number }> {
  const store = new SqliteEventStore(file, { maxGroupSize });
  const perAppender = APPEND_EVENTS / appenders;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: appenders }, async (_, k) => {
      let expected: number | 'no_stream' = 'no_stream';
      for (let i = 0; i < perAppender; i++) {
        const r = await store.append(
          `bench-${k}`,
          [{ id: randomUUID(), type: 'CommentPosted', data: sampleData(i), metadata: sampleMetadata() }],
          expected,
        );
        expected = r.nextRevision;
      }
    }),
  );
  const elapsed = seconds(start);
  const stats = store.commitStats();
  await store.close();
  return { rate: APPEND_EVENTS / elapsed, perTx: stats.appends / stats.transactions };
}

/** Same rows, `batch` per transaction: what group commit could at best achieve for that concurrency. */
function rawAppends(file: string, batch: number): number {
  const db = openRaw(file);
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const perStream = APPEND_EVENTS / batch;
  const writeBatch = db.transaction((i: number) => {
    for (let k = 0; k < batch; k++) {
      insert.run(
        `bench-${k}`,
        i,
        randomUUID(),
        'CommentPosted',
        JSON.stringify(sampleData(i)),
        JSON.stringify(sampleMetadata()),
      );
    }
  });
  const start = process.hrtime.bigint();
  for (let i = 0; i < perStream; i++) writeBatch.immediate(i);
  const elapsed = seconds(start);
  db.close();
  return APPEND_EVENTS / elapsed;
}

function fillForReplay(file: string): void {
  const db = openRaw(file);
  // Building the data set is not what is measured: skip the fsyncs.
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const streams = 10_000;
  const metadata = JSON.stringify(sampleMetadata());
  const chunk = 50_000;
  const bar = new cliProgress.SingleBar(
    { format: 'writing replay data [{bar}] {value}/{total}', stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  bar.start(REPLAY_EVENTS, 0);
  const writeChunk = db.transaction((from: number) => {
    for (let i = from; i < from + chunk; i++) {
      insert.run(
        `video-${i % streams}`,
        Math.floor(i / streams),
        randomUUID(),
        'CommentPosted',
        JSON.stringify(sampleData(i)),
        metadata,
      );
    }
  });
  for (let from = 0; from < REPLAY_EVENTS; from += chunk) {
    writeChunk(from);
    bar.update(from + chunk);
  }
  bar.stop();
  db.close();
}

async function adapterReplay(file: string): Promise<number> {
  const store = new SqliteEventStore(file);
  let count = 0;
  let likes = 0;
  const start = process.hrtime.bigint();
  for await (const batch of store.readAll()) {
    for (const e of batch) likes += (e.data as { likes: number }).likes;
    count += batch.length;
  }
  const elapsed = seconds(start);
  await store.close();
  if (count !== REPLAY_EVENTS || likes <= 0) throw new Error(`replay read ${count} events`);
  return count / elapsed;
}

function rawReplay(file: string, parse: boolean): number {
  const db = openRaw(file);
  const stmt = db.prepare<[], { data: string; metadata: string }>('SELECT * FROM events ORDER BY position');
  let count = 0;
  let likes = 0;
  const start = process.hrtime.bigint();
  for (const row of stmt.iterate()) {
    if (parse) {
      likes += (JSON.parse(row.data) as { likes: number }).likes;
      JSON.parse(row.metadata);
    }
    count++;
  }
  const elapsed = seconds(start);
  db.close();
  if (count !== REPLAY_EVENTS || (parse && likes <= 0)) throw new Error(`raw scan read ${count} events`);
  return count / elapsed;
}

function printTable(title: string, rows: Row[]): void {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(11);
  console.log(`\n${title}`);
  console.log(`${'case'.padEnd(34)} ${'adapter/s'.padStart(11)} ${'raw/s'.padStart(11)}  ratio  note`);
  for (const r of rows) {
    console.log(
      `${r.label.padEnd(34)} ${fmt(r.adapter)} ${fmt(r.raw)}  ${(r.adapter / r.raw).toFixed(2).padStart(5)}  ${r.note}`,
    );
  }
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'evo-bench-es-'));
  const began = process.hrtime.bigint();
  try {
    console.log(`SQLite event store benchmark (WAL, synchronous=FULL), Node ${process.version}`);
    const appendRows: Row[] = [];
    for (const appenders of [1, 32]) {
      const a = await adapterAppends(freshFile(dir, `adapter-${appenders}.db`), appenders);
      const raw = rawAppends(freshFile(dir, `raw-${appenders}.db`), appenders);
      appendRows.push({
        label: `${appenders} appender(s), group commit on`,
        adapter: a.rate,
        raw,
        note: `raw: ${appenders} row(s)/transaction; adapter: ${a.perTx.toFixed(1)} appends/transaction`,
      });
    }
    // Same load with grouping disabled: one transaction (one fsync) per append.
    const ungrouped = await adapterAppends(freshFile(dir, 'adapter-ungrouped.db'), 32, 1);
    appendRows.push({
      label: '32 appenders, group commit off',
      adapter: ungrouped.rate,
      raw: appendRows[0].raw,
      note: `raw: 1 row/transaction; adapter: ${ungrouped.perTx.toFixed(1)} appends/transaction`,
    });
    const rawBig = rawAppends(freshFile(dir, 'raw-1000.db'), 1000);
    printTable(
      `Appends: ${APPEND_EVENTS.toLocaleString('en-US')} single-event appends, one stream per appender (goal: adapter >= 0.5 x raw)`,
      appendRows,
    );
    console.log(`(reference: raw with 1000 rows/transaction: ${Math.round(rawBig).toLocaleString('en-US')} rows/s)`);

    const replayFile = freshFile(dir, 'replay.db');
    fillForReplay(replayFile);
    const adapter = await adapterReplay(replayFile);
    const rawPlain = rawReplay(replayFile, false);
    const rawParsed = rawReplay(replayFile, true);
    printTable(`Replay of ${REPLAY_EVENTS.toLocaleString('en-US')} events (goal: adapter >= 200,000/s)`, [
      { label: 'readAll (batches of 1000) vs scan', adapter, raw: rawPlain, note: 'raw: .iterate(), no JSON parsing' },
      {
        label: 'readAll vs scan + JSON.parse',
        adapter,
        raw: rawParsed,
        note: 'raw: .iterate(), data and metadata parsed',
      },
    ]);
    console.log(`\ntotal ${seconds(began).toFixed(1)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
