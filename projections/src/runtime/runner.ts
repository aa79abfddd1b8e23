import type { LogPosition, RecordedAppEvent, RecordedEvent } from '@evo/domain';
import {
  PositionWaiters,
  childLogger,
  type EventStore,
  type PushBus,
  type ReadStore,
  type SubscriptionHandle,
} from '@evo/infra';
import type { Projector, ProjectionContext } from './projector';
import { CHECKPOINTS, CHECKPOINT_ID, readCheckpoint, writeCheckpoint } from './checkpoint';
import { ownCollectionsOnly } from './own-collections';

/** One document per projector stopped on an event it could not apply (`_id`: its name). */
export const PROJECTION_STATUS = '_projection_status';

/** A projector stopped after failing on an event again and again: the others go on without it. */
export interface StoppedProjection {
  name: string;
  /** the event it could not apply; it has applied every event before it */
  position: LogPosition;
  type: string;
  error: string;
  at: string;
}

type StoppedDoc = { _id: string; position: string; type: string; error: string; at: string };

/** How the read side is doing, for /ready and the back-office. */
export interface ProjectionHealth {
  caughtUp: boolean;
  stopped: StoppedProjection[];
  /** the read models cannot be written (disk full, database away): retried until it passes */
  storeError?: string;
}

/**
 * While events come from several commands at once (the last live batch held more than
 * ONE_COMMAND_EVENTS), a live batch starts at most this long after the one before: the events of
 * the span share one read-store transaction (one commit, and the documents they share written
 * once) instead of one transaction for every few events. Otherwise a batch starts at once.
 */
const LIVE_BATCH_EVERY_MS = 20;
/** what one command usually brings to the runner at once (a gift: its send, then its credit) */
const ONE_COMMAND_EVENTS = 2;

/**
 * Events per read-store transaction in a bulk load from empty (a rebuild, a first start, on
 * SQLite): nobody reads those read models yet, and a document the batch's events touch many times
 * (a creator's counters) is written once per batch. Without a bulk load (MongoDB, whose
 * transactions should stay small) a load's batches are the catching up's.
 */
const LOAD_BATCH_EVENTS = 10_000;

/** Tries of a failing batch before the failing event and projector are looked for. */
const BATCH_TRIES = 5;
/** Tries of one projector on one event before it is stopped there. */
const EVENT_TRIES = 3;

export interface RunnerOptions {
  events: EventStore;
  read: ReadStore;
  projectors: readonly Projector[];
  push?: PushBus;
  /** events per read-store transaction while catching up (500; in a load from empty, see LOAD_BATCH_EVENTS) */
  batchSize?: number;
  /** live batches start at most this often (ms); LIVE_BATCH_EVERY_MS when not given */
  liveBatchEveryMs?: number;
  /** recorded with the checkpoint: the code that built the read models (projectorFingerprint) */
  fingerprint?: string;
  onError?: (err: unknown) => void;
  /** the read models include every event up to `position` (called after the batch's commit) */
  onPosition?: (position: LogPosition) => void;
}

const log = childLogger('projections');

/** How far the read models are; the API waits on it for read-your-writes. */
export interface ProjectionProgress {
  /** resolves true once the read models include `position`, false after the timeout */
  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean>;
  /** have the read models caught up with the log as it was when they started? */
  isCaughtUp(): Promise<boolean>;
  /** caught up, projectors stopped on an event, a store that cannot be written */
  health(): Promise<ProjectionHealth>;
}

/** How far a catch-up or a load is: events applied, and the position of the last one. */
export type BatchProgress = (done: number, position: LogPosition | undefined) => void;

/** Not live: pushes are dropped (see ProjectionContext). Also the context of bench-rebuild's ceiling. */
export const CATCHING_UP: ProjectionContext = { live: false, push: () => undefined, rooms: () => undefined };

/** A push a projector queued (ProjectionContext's push and rooms), sent once its batch is committed. */
export type Push =
  | { kind: 'emit'; room: string; event: string; payload: unknown }
  | { kind: 'join' | 'leave'; members: string; room: string };

export const sendPush = (bus: PushBus, p: Push): Promise<void> =>
  p.kind === 'emit'
    ? bus.publish(p.room, p.event, p.payload)
    : p.kind === 'join'
      ? bus.joinRoom(p.members, p.room)
      : bus.leaveRoom(p.members, p.room);

/** Which projectors see an event of each type: those that declare it (Projector.eventTypes). */
export function routesOf(projectors: readonly Projector[]): Map<string, Projector[]> {
  const routes = new Map<string, Projector[]>();
  for (const projector of projectors) {
    for (const type of new Set(projector.eventTypes)) {
      const list = routes.get(type);
      if (list) list.push(projector);
      else routes.set(type, [projector]);
    }
  }
  return routes;
}

/**
 * Feeds the projectors from the whole log, each event to those that declare its type: catch-up in
 * batches, then live from a subscription, the events that arrived while the previous batch was
 * written making the next one. One read-store transaction per batch, its checkpoint in the same
 * transaction. Change messages are pushed only when live, after their write is committed.
 */
export class ProjectionRunner implements ProjectionProgress {
  private position: LogPosition | undefined;
  private caughtUp = false;
  private subscription: SubscriptionHandle | undefined;
  private readonly waiters = new PositionWaiters((p) => this.position !== undefined && this.position >= p);
  private readonly batchSize: number;
  private readonly liveBatchEveryMs: number;
  /** when the last live batch started (performance.now()), and how many events it held */
  private liveBatchAt = Number.NEGATIVE_INFINITY;
  private liveBatchSize = 0;
  /** live events received and not yet applied, in log order */
  private pending: RecordedEvent[] = [];
  private flushing: Promise<void> | undefined;
  private stopping = false;
  /** event type -> the projectors that declare it, in the projectors' order */
  private readonly routes: ReadonlyMap<string, readonly Projector[]>;
  /** projectors stopped on an event (kept in PROJECTION_STATUS with the read models) */
  private readonly stopped = new Map<string, StoppedProjection>();
  private storeError: string | undefined;
  /** a resume under way: live batches wait for it */
  private resuming: Promise<void> | undefined;

  constructor(private readonly options: RunnerOptions) {
    this.options = { ...options };
    this.batchSize = options.batchSize ?? 500;
    this.liveBatchEveryMs = options.liveBatchEveryMs ?? LIVE_BATCH_EVERY_MS;
    this.routes = routesOf(options.projectors);
  }

  get currentPosition(): LogPosition | undefined {
    return this.position;
  }

  async ensureIndexes(read: ReadStore = this.options.read): Promise<void> {
    for (const p of this.options.projectors) {
      for (const [collection, specs] of Object.entries(p.indexes ?? {})) {
        for (const spec of specs) await read.collection(collection).createIndex(spec);
      }
    }
  }

  /** Start (or stop: undefined) publishing change messages; a rebuilt runner gets it when it takes over. */
  setPush(push: PushBus | undefined): void {
    this.options.push = push;
  }

  /**
   * Catch up with the log, then keep following it. Resolves once caught up. Events after
   * `pushAfter` push their changes as live ones do: a thread started again in a running process
   * sends what its members' screens have not been told yet.
   */
  async start(onBatch?: BatchProgress, pushAfter?: LogPosition): Promise<void> {
    this.position = await readCheckpoint(this.options.read);
    for (const doc of await this.options.read.collection<StoppedDoc>(PROJECTION_STATUS).find({}))
      this.stopped.set(doc._id, { ...doc, name: doc._id, position: BigInt(doc.position) });
    if (this.position === undefined) {
      await this.load(onBatch);
    } else {
      await this.ensureIndexes();
      await this.catchUp(onBatch, false, pushAfter);
    }
    this.caughtUp = true;
    this.notify();
    this.subscription = this.options.events.subscribeToAll((e) => this.applyLive(e), {
      from: this.position,
      onError: this.options.onError,
    });
  }

  /**
   * The whole log into read models that have no checkpoint: a rebuild (rebuild.ts) and a first
   * start both come here. The batches of `catchUp`, inside the store's bulkLoad when it has one
   * (indexes built once the log is in, or when a projector's query needs one). Resolves with the
   * number of events read.
   */
  async load(onBatch?: BatchProgress): Promise<number> {
    const read = this.options.read;
    const loadInBatches = async () => {
      await this.ensureIndexes();
      const size = read.bulkLoad && this.options.batchSize === undefined ? LOAD_BATCH_EVENTS : this.batchSize;
      return this.catchUp(onBatch, true, undefined, size);
    };
    return read.bulkLoad ? read.bulkLoad(loadInBatches) : loadInBatches();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.subscription?.stop();
    this.subscription = undefined;
    await this.flushing;
    this.waiters.cancelAll();
  }

  /**
   * Replay the log after the checkpoint into the read models, a batch per transaction. A load
   * from empty (`failFast`: a rebuild, a first start) fails on a batch that keeps failing instead
   * of stopping a projector: a rebuilt set is whole or not used.
   */
  async catchUp(
    onBatch?: BatchProgress,
    failFast = false,
    pushAfter?: LogPosition,
    batchSize = this.batchSize,
  ): Promise<number> {
    let done = 0;
    for await (const batch of this.options.events.readAll(this.position, batchSize)) {
      const toPush = pushAfter === undefined ? -1 : batch.findIndex((e) => e.position > pushAfter);
      if (toPush === -1) await this.applyWithRecovery(batch, false, failFast);
      else {
        if (toPush > 0) await this.applyWithRecovery(batch.slice(0, toPush), false, failFast);
        await this.applyWithRecovery(batch.slice(toPush), true, failFast);
      }
      done += batch.length;
      onBatch?.(done, this.position);
    }
    return done;
  }

  /**
   * Live events are queued and applied in batches: whatever arrived while the previous batch was
   * being written (and, while several commands' events come at once, within LIVE_BATCH_EVERY_MS
   * of its start) goes into the next transaction (one checkpoint write per batch, not per event).
   * The subscription waits only when too much is queued.
   */
  private async applyLive(event: RecordedEvent): Promise<void> {
    const queuedUpTo = this.pending.length > 0 ? this.pending[this.pending.length - 1].position : this.position;
    if (queuedUpTo !== undefined && event.position <= queuedUpTo) return;
    this.pending.push(event);
    this.flushing ??= this.flush().finally(() => {
      this.flushing = undefined;
    });
    if (this.pending.length >= this.batchSize) await this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0 && !this.stopping) {
      const wait = this.liveBatchAt + this.liveBatchEveryMs - performance.now();
      // the subscription hands over the events it read one at a time: the rest of the append that
      // brought the first is queued before the batch is cut (a timer's wait lets it, or one turn of
      // the event loop), so a command's events commit together
      if (this.liveBatchSize > ONE_COMMAND_EVENTS && wait > 0) await new Promise((r) => setTimeout(r, wait));
      else await new Promise((resolve) => setImmediate(resolve));
      await this.resuming;
      if (this.stopping) break;
      const batch = this.pending.slice(0, this.batchSize);
      this.liveBatchAt = performance.now();
      this.liveBatchSize = batch.length;
      await this.applyWithRecovery(batch, true);
      this.pending.splice(0, batch.length);
    }
  }

  /**
   * A batch applied whatever happens, never skipping an event: a failure is retried with backoff;
   * after BATCH_TRIES the events are applied one by one, each projector alone, to find the one
   * that fails. A projector failing EVENT_TRIES times on an event is stopped there (in the log,
   * in /ready, in PROJECTION_STATUS) and the others go on; when the store itself cannot be
   * written (disk full: even the checkpoint fails), everything waits and retries until it can.
   */
  private async applyWithRecovery(batch: RecordedEvent[], live: boolean, failFast = false): Promise<void> {
    for (let failures = 0; ; failures++) {
      if (this.stopping && live) return;
      try {
        if (failures < BATCH_TRIES) await this.applyBatch(batch, live);
        else await this.applyOneByOne(batch, live);
        this.storeError = undefined;
        return;
      } catch (err) {
        if (failFast && failures + 1 >= BATCH_TRIES) throw err;
        this.options.onError?.(err);
        if (failures >= BATCH_TRIES) this.storeError = (err as Error).message;
        await new Promise((r) => setTimeout(r, Math.min(5000, 50 * 2 ** failures)));
      }
    }
  }

  /** The events of a failing batch one by one, each projector in a transaction of its own. */
  private async applyOneByOne(batch: RecordedEvent[], live: boolean): Promise<void> {
    for (const event of batch) {
      if (this.position !== undefined && event.position <= this.position) continue;
      for (const projector of this.projectorsOf(event)) {
        for (let tries = 1; ; tries++) {
          try {
            await this.applyBatch([event], live, projector);
            break;
          } catch (err) {
            if (tries < EVENT_TRIES) continue;
            // the store itself? a write of nothing but the checkpoint tells (it throws on a full disk)
            await this.options.read.withTransaction((tx) => writeCheckpoint(tx, this.position ?? 0n));
            await this.stopProjector(projector, event, err);
            break;
          }
        }
      }
      // every projector of the event applied it, or is stopped: the event is done
      await this.options.read.withTransaction((tx) =>
        writeCheckpoint(tx, event.position, { eventId: event.id, fingerprint: this.options.fingerprint }),
      );
      this.position = event.position;
      this.notify();
    }
  }

  private async stopProjector(projector: Projector, event: RecordedEvent, err: unknown): Promise<void> {
    const stopped: StoppedProjection = {
      name: projector.name,
      position: event.position,
      type: event.type,
      error: (err as Error)?.message ?? String(err),
      at: new Date().toISOString(),
    };
    await this.options.read.collection<StoppedDoc>(PROJECTION_STATUS).replaceOne(
      { _id: projector.name },
      {
        _id: projector.name,
        position: String(stopped.position),
        type: stopped.type,
        error: stopped.error,
        at: stopped.at,
      },
      { upsert: true },
    );
    this.stopped.set(projector.name, stopped);
    log.error(
      { projection: projector.name, position: String(event.position), type: event.type, err },
      `projection « ${projector.name} » arrêtée à l'événement ${event.position} (${event.type}) : ${stopped.error}`,
    );
  }

  /** The projectors that see `event`: those declaring its type, except the stopped ones. */
  private projectorsOf(event: RecordedEvent): readonly Projector[] {
    const all = this.routes.get(event.type) ?? [];
    return this.stopped.size === 0 ? all : all.filter((p) => !this.stopped.has(p.name));
  }

  /**
   * A stopped projector brought up to date (after a fix): the log from its event to where the
   * others are, applied to it alone, while live batches wait; then it runs with the others again.
   * If it fails again, it stays stopped (at the new event) and this throws.
   */
  async resume(name: string): Promise<void> {
    const stopped = this.stopped.get(name);
    const projector = this.options.projectors.find((p) => p.name === name);
    if (!stopped || !projector) throw new Error(`la projection « ${name} » n'est pas arrêtée`);
    let release!: () => void;
    const previous = this.resuming;
    this.resuming = new Promise((r) => (release = r));
    try {
      await previous;
      await this.flushing;
      const upTo = this.position ?? 0n;
      const types = new Set(projector.eventTypes as readonly string[]);
      for await (const batch of this.options.events.readAll(stopped.position - 1n, this.batchSize)) {
        const mine = batch.filter((e) => e.position <= upTo && types.has(e.type));
        for (const event of mine) {
          try {
            await this.applyBatch([event], false, projector, false);
          } catch (err) {
            await this.stopProjector(projector, event, err);
            throw err;
          }
        }
        if (batch.length > 0 && batch[batch.length - 1].position >= upTo) break;
      }
      await this.options.read.collection(PROJECTION_STATUS).deleteOne({ _id: name });
      this.stopped.delete(name);
      log.info({ projection: name }, `projection « ${name} » reprise`);
    } finally {
      release();
      if (this.resuming) this.resuming = undefined;
    }
  }

  /**
   * One transaction: the batch's events through their projectors (or `only` that one), and the
   * checkpoint (unless `checkpoint` is false: a resumed projector catching up alone).
   */
  private async applyBatch(batch: RecordedEvent[], live: boolean, only?: Projector, checkpoint = true): Promise<void> {
    if (batch.length === 0) return;
    let pushes: Push[] = [];
    const ctx: ProjectionContext = live
      ? {
          live,
          push: (room, event, payload) => pushes.push({ kind: 'emit', room, event, payload }),
          rooms: (members, room, action) => pushes.push({ kind: action, members, room }),
        }
      : CATCHING_UP;
    const lastEvent = batch[batch.length - 1];
    const last = lastEvent.position;
    await this.options.read.withTransaction(async (tx) => {
      // a transaction may be re-run: keep only the pushes of the run that commits
      pushes = [];
      // each projector writes its own collections only (one writer per document)
      const stores = new Map<Projector, ReadStore>();
      const storeOf = (p: Projector) => stores.get(p) ?? stores.set(p, ownCollectionsOnly(tx, p)).get(p)!;
      for (const event of batch) {
        for (const projector of only ? [only] : this.projectorsOf(event))
          await projector.project(event as RecordedAppEvent, storeOf(projector), ctx);
      }
      if (checkpoint && !only)
        await writeCheckpoint(tx, last, { eventId: lastEvent.id, fingerprint: this.options.fingerprint });
    });
    if (checkpoint && !only) {
      this.position = last;
      this.notify();
    }
    if (live && this.options.push) {
      const bus = this.options.push;
      for (const p of pushes) await sendPush(bus, p).catch((err) => this.options.onError?.(err));
    }
  }

  private notify() {
    this.waiters.notify();
    if (this.position !== undefined) this.options.onPosition?.(this.position);
  }

  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    return this.waiters.wait(position, timeoutMs);
  }

  async isCaughtUp(): Promise<boolean> {
    return this.caughtUp;
  }

  async health(): Promise<ProjectionHealth> {
    return { caughtUp: this.caughtUp, stopped: [...this.stopped.values()], storeError: this.storeError };
  }
}

export { CHECKPOINTS, CHECKPOINT_ID };

/**
 * /ready from the read side's health: 503 while catching up or while the read models cannot be
 * written (the disk is full: commands still answer, the read models wait); 200 otherwise, with
 * 'degraded' and the French reason when a projector is stopped (the other read models are live).
 */
export function readiness(h: ProjectionHealth): { status: number; body: Record<string, unknown> } {
  const stopped = h.stopped.map((s) => ({ ...s, position: String(s.position) }));
  if (h.storeError)
    return {
      status: 503,
      body: {
        status: 'degraded',
        error: `Les modèles de lecture ne peuvent pas être écrits : ${h.storeError}`,
        stopped,
      },
    };
  if (!h.caughtUp) return { status: 503, body: { status: 'catching-up' } };
  if (stopped.length === 0) return { status: 200, body: { status: 'ready' } };
  const reasons = stopped.map((s) => `« ${s.name} » à l'événement ${s.position} (${s.type}) : ${s.error}`);
  return {
    status: 200,
    body: { status: 'degraded', error: `Projection arrêtée ${reasons.join(' ; ')}`, stopped },
  };
}
