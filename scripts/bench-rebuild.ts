/**
 * Rebuild benchmark (not a test): a full rebuild of every read model from an empty SqliteReadStore
 * (what `npm run replay` and the embedded server do), over a realistic log written through the
 * deciders (scripts/restart-history.ts: registrations, uploads, logins, follows, likes, comments,
 * messages, gifts), next to the raw `readAll` of the same log in the same run.
 *
 *   npx tsx scripts/bench-rebuild.ts [--events=1000000] [--runs=2] [--batch=N] [--generate-only] [--per-projector]
 *
 * --per-projector (or BENCH_REBUILD_PER_PROJECTOR=1; not part of `npm run bench`): after the runs, one
 * more rebuild with each projector's calls timed, and a table of where its time goes.
 *
 * Each rebuild's rows written per event, and its rate and rows in the first and last tenth of the
 * log, say what the data already there costs. Next to the rebuild, a ceiling of the same run: the
 * log read and each event handed to its projectors as the runner does, over a store that answers at
 * once and keeps nothing (no read model can cost less). Reads find nothing there, so the projectors
 * skip what depends on them (a follower's timeline, a sender's pseudo): the true ceiling is lower
 * still.
 *
 * The log is generated once and cached in .cache/bench-rebuild/ (gitignored); bench-restart's
 * cached log of the same size is the same history and is used when it is there.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { childLogger, SqliteReadStore, SqliteEventStore } from '@evo/infra';
import type { RecordedAppEvent } from '@evo/domain';
import { CATCHING_UP, allProjectors, rebuildReadModels, routesOf, type Projector } from '@evo/projections';
import { ensureHistoryLog } from './lib/history-log';
import { KeepsNothingStore } from './lib/keeps-nothing-store';
import { printGoal, printReport } from './lib/goals';
import { textArg } from './lib/args';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVENTS = Number(textArg('events') ?? process.env.BENCH_REBUILD_EVENTS ?? 1_000_000);
const RUNS = Number(textArg('runs') ?? process.env.BENCH_REBUILD_RUNS ?? 2);
/** events per read-store transaction (rebuildReadModels' default when absent) */
const BATCH = textArg('batch') === undefined ? undefined : Number(textArg('batch'));
/** issue 27: a rebuild at half the speed of the same run's ceiling at least */
const GOAL_SHARE = 0.5;
const PER_PROJECTOR = process.argv.includes('--per-projector') || process.env.BENCH_REBUILD_PER_PROJECTOR === '1';

const log = childLogger('bench-rebuild');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** readAll of the whole log, every event decoded, nothing else. */
async function rawReadAll(events: SqliteEventStore): Promise<{ count: number; rate: number }> {
  let count = 0;
  const started = performance.now();
  for await (const batch of events.readAll(undefined, 1000)) count += batch.length;
  return { count, rate: count / ((performance.now() - started) / 1000) };
}

/**
 * The ceiling of a rebuild on this machine: the log read in the runner's batches and each event
 * handed to the projectors that declare its type, over a KeepsNothingStore. What is left is reading
 * and decoding the log, the projectors' own code and the port's calls (promises included).
 */
async function ceiling(events: SqliteEventStore): Promise<{ count: number; rate: number }> {
  const routes = routesOf(allProjectors);
  const store = new KeepsNothingStore();
  let count = 0;
  const started = performance.now();
  for await (const batch of events.readAll(undefined, BATCH ?? 1000)) {
    for (const event of batch) {
      const projectors = routes.get(event.type);
      if (projectors) for (const p of projectors) await p.project(event as RecordedAppEvent, store, CATCHING_UP);
    }
    count += batch.length;
  }
  return { count, rate: count / ((performance.now() - started) / 1000) };
}

/**
 * Where a rebuild's time goes: one more full rebuild, each projector's `project` timed around each
 * call (the runner awaits one call at a time, and a ScratchStore answers at once, so a call's time
 * is that projector's work on that event); the rest is reading the log, routing, the hand-over to
 * the SqliteReadStore (its indexes built) and collections of garbage not paid during a call.
 */
async function perProjector(events: SqliteEventStore): Promise<void> {
  const spent = new Map<string, { ms: number; events: number }>();
  const timed: Projector[] = allProjectors.map((projector) => {
    const mine = { ms: 0, events: 0 };
    spent.set(projector.name, mine);
    return {
      ...projector,
      project: async (event, store, ctx) => {
        const started = performance.now();
        await projector.project(event, store, ctx);
        mine.ms += performance.now() - started;
        mine.events++;
      },
    };
  });
  const read = SqliteReadStore.temporary();
  globalThis.gc?.();
  const started = performance.now();
  const result = await rebuildReadModels({ events, read, projectors: timed, batchSize: BATCH });
  const total = performance.now() - started;
  const rows = [...spent].sort((a, b) => b[1].ms - a[1].ms);
  const inProjectors = rows.reduce((sum, [, r]) => sum + r.ms, 0);
  const table = rows.map(([name, r]) => [
    name,
    fmt(r.events),
    `${(r.ms / 1000).toFixed(1)} s`,
    `${((100 * r.ms) / total).toFixed(0)} %`,
    r.events > 0 ? ((r.ms * 1000) / r.events).toFixed(1) : '—',
  ]);
  table.push([
    '(the rest: reading the log, routing, indexes built at the hand-over, collections between calls)',
    '',
    `${((total - inProjectors) / 1000).toFixed(1)} s`,
    `${((100 * (total - inProjectors)) / total).toFixed(0)} %`,
    '',
  ]);
  printReport(
    `Where a rebuild's time goes (one more rebuild, ${fmt(result.events)} events in ${(total / 1000).toFixed(1)} s, each projector's calls timed):`,
    ['projector', 'events handled:', 'time in its calls:', 'share of the rebuild:', 'µs per handled event:'],
    table,
  );
}

const SLICES = 10;

/**
 * A rebuild's rate and rows written per event in each tenth of the log: what the data already
 * there costs (the ceiling writes nothing, and its rate hardly moves along the log). Rows count
 * when the load flushes them (every 25,000 dirty documents): a tenth shorter than a few flushes
 * (a short log) shows them late.
 */
class RateBySlice {
  private readonly marks: Array<{ done: number; at: number; rows: number }> = [];

  constructor(
    private readonly total: number,
    started: number,
    private readonly rows: () => number,
  ) {
    this.marks.push({ done: 0, at: started, rows: rows() });
  }

  /** called with the events done after each batch: the first batch past each tenth is marked */
  note(done: number): void {
    const next = Math.floor((this.marks.length * this.total) / SLICES);
    if (this.marks.length <= SLICES && done >= next)
      this.marks.push({ done, at: performance.now(), rows: this.rows() });
  }

  slice(i: number): { rate: number; rowsPerEvent: number } {
    const [from, to] = [this.marks[i], this.marks[i + 1]];
    if (!from || !to || to.done === from.done) return { rate: NaN, rowsPerEvent: NaN };
    const events = to.done - from.done;
    return { rate: events / ((to.at - from.at) / 1000), rowsPerEvent: (to.rows - from.rows) / events };
  }
}

async function main() {
  const machine = `${os.cpus().length} cœurs, charge ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}, Node ${process.version}`;
  log.info(`Reconstruction des modèles de lecture (${machine}) — machine partagée : des ordres de grandeur.`);
  const cachedLog = await ensureHistoryLog(EVENTS);
  if (process.argv.includes('--generate-only')) return;
  // a copy: opening the store may write (WAL files, schema check), the cache stays as it was
  const tmp = path.join(ROOT, '.bench-tmp', 'rebuild');
  mkdirSync(tmp, { recursive: true });
  const file = path.join(tmp, 'events.sqlite');
  copyFileSync(cachedLog, file);
  const events = new SqliteEventStore(file);
  try {
    const rows: string[][] = [];
    for (let run = 1; run <= RUNS; run++) {
      const raw = await rawReadAll(events);
      const read = SqliteReadStore.temporary();
      globalThis.gc?.();
      // end to end: from the call to read models ready to query (indexes built)
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const slices = new RateBySlice(raw.count, started, () => read.counters.rowsWritten);
      const result = await rebuildReadModels({
        events,
        read,
        projectors: allProjectors,
        batchSize: BATCH,
        onProgress: (p) => slices.note(p.done),
      });
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      // CPU seconds of this process: what other load on a shared machine hardly changes
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      const rate = result.events / seconds;
      if (result.events !== raw.count) throw new Error(`rebuild read ${result.events} events, readAll ${raw.count}`);
      let documents = 0;
      for (const name of await read.listCollections()) documents += await read.collection(name).countDocuments();
      const heap = process.memoryUsage().heapUsed;
      // after the rebuild (its figure keeps the warm-up it had before this row existed), from a
      // collected heap: the rebuilt read models would make the ceiling pay for marking them
      await read.dropAll();
      globalThis.gc?.();
      const bound = await ceiling(events);
      const share = rate / bound.rate;
      const rowsPerEvent = (read.counters.rowsWritten / result.events).toFixed(2);
      const [first, last] = [slices.slice(0), slices.slice(SLICES - 1)];
      rows.push([
        `rebuild, ${allProjectors.length} projectors, run ${run}/${RUNS}`,
        `${fmt(rate)} events/s (${fmt(result.events)} in ${seconds.toFixed(1)} s; ${fmt(result.events / cpuSeconds)} per CPU second; ${fmt(documents)} documents, heap ${Math.round(heap / 1024 / 1024)} MB)`,
        `rows written per event ${rowsPerEvent}; first tenth of the log ${fmt(first.rate)} events/s, ${first.rowsPerEvent.toFixed(2)} rows per event; last tenth ${fmt(last.rate)} events/s, ${last.rowsPerEvent.toFixed(2)} rows per event`,
        `raw readAll ${fmt(raw.rate)} events/s; ceiling (the projectors over a store that keeps nothing, writes nothing) ${fmt(bound.rate)} events/s`,
        `${share.toFixed(3)} of the ceiling, ≥ ${GOAL_SHARE}: ${share >= GOAL_SHARE ? 'met' : 'NOT met'}`,
      ]);
      log.info({ row: rows.at(-1)!.join(' | ') }, 'reconstruction mesurée');
      printGoal(
        `rebuild of every read model, ${fmt(result.events)} events, ${allProjectors.length} projectors (run ${run}/${RUNS})`,
        `${fmt(rate)} events/s = ${share.toFixed(3)} of the ceiling of the same run (${fmt(bound.rate)}/s, the projectors over a store that keeps nothing); ${fmt(result.events / cpuSeconds)} per CPU second; ${rowsPerEvent} rows written per event`,
        `≥ ${GOAL_SHARE} of the ceiling`,
        share >= GOAL_SHARE,
      );
    }
    printReport(
      `Reconstruction des modèles de lecture (${machine}, au début) — machine partagée : des ordres de grandeur.`,
      ['figure', 'measured', 'what it writes, first and last tenth', 'same log, same run', 'goal (issue 27)'],
      rows,
    );
    if (PER_PROJECTOR) await perProjector(events);
  } finally {
    await events.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
