// The benchmarks' realistic log, written through the deciders (scripts/restart-history.ts) once and
// cached in .cache/ (gitignored): bench-rebuild and bench-live-projection read the same history.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@evo/infra';
import { HistoryWriter } from '../restart-history';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = path.join(ROOT, '.cache', 'bench-rebuild');

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * The cached log of `events` events (generated through the deciders on first use); bench-restart's
 * cached log of the same size is the same history and is used when it is there. Read it from a
 * copy: opening a store may write to its file.
 */
export async function ensureHistoryLog(events: number): Promise<string> {
  const shared = path.join(ROOT, '.cache', 'bench-restart', `log-${events}.sqlite`);
  if (existsSync(shared)) return shared;
  const file = path.join(CACHE, `log-${events}.sqlite`);
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  const work = path.join(CACHE, 'writing.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(work + suffix, { force: true });
  const store = new SqliteEventStore(work, { maxGroupSize: 4000 });
  const writer = new HistoryWriter(store);
  const started = performance.now();
  await writer.writeUntil(events, (n) => process.stdout.write(`\r  génération du journal : ${n} événements`));
  await store.close(); // checkpoints the WAL into the file
  renameSync(work, file);
  for (const suffix of ['-wal', '-shm']) rmSync(work + suffix, { force: true });
  const s = (performance.now() - started) / 1000;
  process.stdout.write(`\r  journal de ${fmt(writer.written)} événements écrit en ${s.toFixed(0)} s\n`);
  return file;
}
