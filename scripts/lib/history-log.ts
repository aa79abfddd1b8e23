// The benchmarks' realistic logs, written through the deciders (scripts/restart-history.ts) once and
// cached in .cache/ (gitignored): bench-restart, bench-rebuild and bench-live-projection read the
// same history, cut at different lengths.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
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
 * The work files of runs that ended before their end (killed): the process that wrote them is gone.
 * Also `writing.sqlite` (and its -wal, -shm), the one work file of versions before the pid was in
 * its name: no run writes it any more.
 */
function removeLeftByEndedRuns(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = /^writing-(\d+)\.sqlite/.exec(name)?.[1] ?? /\.(\d+)\.tmp$/.exec(name)?.[1];
    const ended = pid === undefined ? /^writing\.sqlite(-wal|-shm)?$/.test(name) : !isRunning(Number(pid));
    if (ended) rmSync(path.join(dir, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: running, as another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
  // a file of this run's own: two runs at once each write theirs (one file for both corrupted it)
  removeLeftByEndedRuns(dir);
  const work = path.join(dir, `writing-${process.pid}.sqlite`);
  let events = new SqliteEventStore(work, { maxGroupSize: 4000 });
  const writer = new HistoryWriter(events);
  const started = performance.now();
  for (const size of ascending) {
    await writer.writeUntil(size, (n) => process.stdout.write(`\r  génération du journal : ${n} événements`));
    await events.close(); // checkpoints the WAL into the file
    const file = historyLogFile(dir, size);
    if (!existsSync(file)) {
      copyFileSync(work, `${file}.${process.pid}.tmp`);
      renameSync(`${file}.${process.pid}.tmp`, file);
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
