// The benchmarks' realistic logs, written through the deciders (scripts/restart-history.ts) once and
// cached in .cache/ (gitignored): bench-restart, bench-rebuild and bench-live-projection read the
// same history, cut at different lengths.
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@evo/infra';
import { HistoryWriter } from '../restart-history';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** bench-restart's logs (several lengths), then those generated for one length only */
export const RESTART_LOGS = path.join(ROOT, '.cache', 'bench-restart');
const SINGLE_LOGS = path.join(ROOT, '.cache', 'bench-rebuild');

export const historyLogFile = (dir: string, events: number) => path.join(dir, `log-${events}.sqlite`);

const fmtCount = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

/**
 * Generates in `dir` the missing logs of `sizes` events in one pass: each size is the same
 * history, cut at that many events (the writer stops at the first group commit past it). Read them
 * from copies: opening a store may write to its file.
 */
export async function ensureHistoryLogs(dir: string, sizes: readonly number[]): Promise<void> {
  const ascending = [...sizes].sort((a, b) => a - b);
  const missing = ascending.filter((s) => !existsSync(historyLogFile(dir, s)));
  if (missing.length === 0) return;
  mkdirSync(dir, { recursive: true });
  const work = path.join(dir, 'writing.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(work + suffix, { force: true });
  let events = new SqliteEventStore(work, { maxGroupSize: 4000 });
  const writer = new HistoryWriter(events);
  const started = performance.now();
  for (const size of ascending) {
    await writer.writeUntil(size, (n) => process.stdout.write(`\r  génération du journal : ${n} événements`));
    await events.close(); // checkpoints the WAL into the file
    const file = historyLogFile(dir, size);
    if (!existsSync(file)) {
      copyFileSync(work, `${file}.tmp`);
      renameSync(`${file}.tmp`, file);
    }
    const s = (performance.now() - started) / 1000;
    process.stdout.write(
      `\r  journal de ${fmtCount(size)} : ${writer.written} événements écrits en ${s.toFixed(0)} s (${Math.round(writer.written / s)}/s)\n`,
    );
    if (size === ascending.at(-1)) break;
    events = new SqliteEventStore(work, { maxGroupSize: 4000 });
    writer.reopen(events);
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(work + suffix, { force: true });
}

/**
 * The cached log of `events` events: bench-restart's when it has that length, otherwise one
 * generated on first use in .cache/bench-rebuild/.
 */
export async function ensureHistoryLog(events: number): Promise<string> {
  const shared = historyLogFile(RESTART_LOGS, events);
  if (existsSync(shared)) return shared;
  await ensureHistoryLogs(SINGLE_LOGS, [events]);
  return historyLogFile(SINGLE_LOGS, events);
}
