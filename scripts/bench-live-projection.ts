/**
 * The read side of a gift send (not a test): what the embedded process spends, per event, applying
 * gift events to its SQLite read models as its live runner does, next to what the projectors
 * alone cost over a store that keeps nothing. A gift send is two events (GiftSent, then the
 * gift credits' GiftReceived), each projected into wallets, movements, stats, received gifts and
 * notifications; bench-gifts measures the send end to end, this bench isolates its read side.
 *
 *   npx tsx scripts/bench-live-projection.ts [--events=300000] [--live=20000] [--batch=10] [--runs=3]
 *
 * The read models first hold the history of the benchmarks' realistic log up to its last gift
 * events (scripts/lib/history-log.ts, shared with bench-rebuild: registrations, uploads, follows,
 * likes, comments, messages, gifts), built as a first start builds them. Then a
 * ProjectionRunner follows that log's last `--live` gift events as if they had just been appended:
 * its subscription gets them `--batch` at a time, each group once the read models include the one
 * before (a gift load of about 1,300 sends/s gave the embedded runner batches of 9 to 10 events,
 * as counted in the issue 14 notes), with `ctx.live` true (the projectors do the reads that shape
 * their pushes; with no socket connected, the pushes themselves are dropped). The live events go
 * in `--runs` equal parts, one after the other, each timed (each part adds to the read models the
 * parts before it left). Then the same events are handed to the projectors as the runner hands
 * them, `--runs` times, over a store that keeps nothing (not live: the push-shaping reads skipped).
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SqliteReadStore,
  childLogger,
  SqliteEventStore,
  type EventStore,
  type SubscribeOptions,
  type SubscriptionHandle,
} from '@evo/infra';
import type { LogPosition, RecordedAppEvent, RecordedEvent } from '@evo/domain';
import { CATCHING_UP, ProjectionRunner, allProjectors, routesOf } from '@evo/projections';
import { ensureHistoryLog } from './lib/history-log';
import { KeepsNothingStore } from './lib/keeps-nothing-store';
import { textArg } from './lib/args';
import { printReport } from './lib/goals';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVENTS = Number(textArg('events') ?? process.env.BENCH_LIVE_EVENTS ?? 300_000);
const BATCH = Number(textArg('batch') ?? 10);
/** the live events are applied in this many equal parts, each timed */
const RUNS = Number(textArg('runs') ?? 3);
/** gift events applied live, in all (the log's last ones) */
const LIVE = Number(textArg('live') ?? 20_000);
const GIFT_TYPES = new Set(['GiftSent', 'GiftReceived']);
const log = childLogger('bench-live-projection');

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * The cached log as a runner sees it: `readAll` gives the history up to `headEnd`, and a
 * subscription from there gives the `live` events `BATCH` at a time, each group once `applied`
 * says the read models include the one before, in RUNS equal segments timed one by one. Read-only.
 */
class ReplayedLog implements EventStore {
  /** each segment's wall time (ms) and CPU time (µs), once every live event is applied */
  readonly done: Promise<Array<{ events: number; ms: number; cpuUs: number }>>;
  private finish!: (r: Array<{ events: number; ms: number; cpuUs: number }>) => void;
  private fail!: (err: unknown) => void;
  private go!: () => void;
  private readonly started = new Promise<void>((resolve) => (this.go = resolve));

  constructor(
    private readonly file: SqliteEventStore,
    private readonly headEnd: LogPosition,
    private readonly live: readonly RecordedEvent[],
    private readonly applied: (position: LogPosition) => Promise<boolean>,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.finish = resolve;
      this.fail = reject;
    });
  }

  /** the live events start flowing */
  start(): void {
    this.go();
  }

  async *readAll(from?: LogPosition, batchSize?: number): AsyncIterable<RecordedEvent[]> {
    if (from !== undefined && from >= this.headEnd) return;
    for await (const batch of this.file.readAll(from, batchSize)) {
      const kept = batch.filter((e) => e.position <= this.headEnd);
      if (kept.length > 0) yield kept;
      if (kept.length < batch.length) return;
    }
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options?: SubscribeOptions): SubscriptionHandle {
    if (options?.from !== this.headEnd) throw new Error(`subscription from ${options?.from}, expected ${this.headEnd}`);
    let stopped = false;
    const segment = Math.ceil(this.live.length / RUNS);
    void (async () => {
      await this.started;
      const segments: Array<{ events: number; ms: number; cpuUs: number }> = [];
      for (let s = 0; s < this.live.length && !stopped; s += segment) {
        const events = this.live.slice(s, s + segment);
        globalThis.gc?.();
        const cpu = process.cpuUsage();
        const t0 = performance.now();
        for (let i = 0; i < events.length && !stopped; i += BATCH) {
          const group = events.slice(i, i + BATCH);
          for (const e of group) await handler(e);
          if (!(await this.applied(group[group.length - 1].position)))
            throw new Error('live events not applied in 60 s');
        }
        const used = process.cpuUsage(cpu);
        segments.push({ events: events.length, ms: performance.now() - t0, cpuUs: used.user + used.system });
      }
      this.finish(segments);
    })().catch((err: unknown) => {
      // the bench stops with the error instead of waiting for ever
      this.fail(err);
      options?.onError?.(err);
    });
    return {
      stop: async () => {
        stopped = true;
      },
    };
  }

  async lastPosition(): Promise<LogPosition | undefined> {
    return this.live.at(-1)?.position ?? this.headEnd;
  }
  append(): never {
    throw new Error('ReplayedLog is read-only');
  }
  readStream(): never {
    throw new Error('ReplayedLog is read-only');
  }
  async close(): Promise<void> {}
}

/**
 * The log's last LIVE gift events, and the position of the event just before the first of them, in
 * one read of the log: the last LIVE gift events seen are kept in a ring, each with the position
 * of the event before it.
 */
async function splitLog(file: SqliteEventStore): Promise<{ headEnd: LogPosition; live: RecordedEvent[] }> {
  const ring: Array<{ event: RecordedEvent; before: LogPosition }> = [];
  let next = 0;
  let previous: LogPosition = 0n;
  for await (const batch of file.readAll(undefined, 1000)) {
    for (const event of batch) {
      if (GIFT_TYPES.has(event.type)) {
        if (ring.length < LIVE) ring.push({ event, before: previous });
        else ring[next] = { event, before: previous };
        next = (next + 1) % LIVE;
      }
      previous = event.position;
    }
  }
  // oldest first: from `next` once the ring is full
  const ordered = ring.length < LIVE ? ring : [...ring.slice(next), ...ring.slice(0, next)];
  return { headEnd: ordered[0]?.before ?? previous, live: ordered.map((g) => g.event) };
}

async function main() {
  const machine = `${os.cpus().length} cœurs, charge ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}, Node ${process.version}`;
  // a copy: opening the store may write (WAL files, schema check), the cache stays as it was
  const tmp = path.join(ROOT, '.bench-tmp', 'live-projection');
  mkdirSync(tmp, { recursive: true });
  const copy = path.join(tmp, 'events.sqlite');
  copyFileSync(await ensureHistoryLog(EVENTS), copy);
  const file = new SqliteEventStore(copy);
  try {
    const { headEnd, live } = await splitLog(file);
    const logEvents = Number((await file.lastPosition()) ?? 0n);

    // the history, loaded as a start without a snapshot loads it
    const read = SqliteReadStore.temporary();
    // (the runner is called only once the live events flow, after it is made)
    const replayed: ReplayedLog = new ReplayedLog(file, headEnd, live, (position) => runner.waitFor(position, 60_000));
    // the groups are this bench's own (--batch): the runner applies each as it comes, unpaced
    const runner: ProjectionRunner = new ProjectionRunner({
      events: replayed,
      read,
      projectors: allProjectors,
      liveBatchEveryMs: 0,
    });
    await runner.start();
    let documents = 0;
    for (const name of await read.listCollections()) documents += await read.collection(name).countDocuments();
    log.info({ logEvents, headEnd: headEnd.toString(), live: live.length, documents }, 'history loaded');
    replayed.start();
    const segments = await replayed.done;
    await runner.stop();

    /** a row: what ran, then per event its wall time and CPU, and the CPU of a gift send (2 events) */
    const rows: string[][] = [];
    const row = (what: string, wallUs: number, cpuUs: number) =>
      rows.push([what, `${fmt(wallUs, 1)} µs`, `${fmt(cpuUs, 1)} µs`, `${fmt(2 * cpuUs)} µs`]);
    segments.forEach(({ events, ms, cpuUs }, i) => {
      log.info({ part: i + 1, events, wallUs: (ms * 1000) / events, cpuUs: cpuUs / events }, 'live part applied');
      row(
        `live runner, SQLite read models, groups of ${BATCH} (${fmt(events)} events, part ${i + 1}/${segments.length})`,
        (ms * 1000) / events,
        cpuUs / events,
      );
    });

    // the projectors alone: the same events handed to them as the runner does, over a store that keeps nothing
    const routes = routesOf(allProjectors);
    for (let run = 1; run <= RUNS; run++) {
      const store = new KeepsNothingStore();
      globalThis.gc?.();
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      for (const e of live) {
        for (const p of routes.get(e.type) ?? []) await p.project(e as RecordedAppEvent, store, CATCHING_UP);
      }
      const used = process.cpuUsage(cpu);
      const wallUs = ((performance.now() - t0) * 1000) / live.length;
      const perEvent = (used.user + used.system) / live.length;
      log.info({ run, events: live.length, wallUs, cpuUs: perEvent }, 'projectors alone');
      row(
        `the projectors alone, not live, over a store that keeps nothing (${fmt(live.length)} events, run ${run}/${RUNS})`,
        wallUs,
        perEvent,
      );
    }
    // the report, once (npm run bench silences the logger: this is what it shows)
    printReport(
      [
        `Côté lecture d'un envoi de cadeau (${machine}) — machine partagée : des ordres de grandeur.`,
        `history: the log up to position ${headEnd} (${fmt(logEvents)} events in all, ${fmt(documents)} documents in the read models); live: its last ${fmt(live.length)} gift events (the other events after the history left out: under a gift load nearly every event is one), in groups of ${BATCH}`,
      ].join('\n'),
      ['gift events', 'wall per event:', 'CPU per event:', 'CPU per gift send (2 events):'],
      rows,
    );
  } finally {
    await file.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
