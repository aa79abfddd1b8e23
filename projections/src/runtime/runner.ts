import type { LogPosition, RecordedAppEvent, RecordedEvent } from '@evo/domain';
import {
  ScratchStore,
  WriteBehindStore,
  type EventStore,
  type PushBus,
  type ReadStore,
  type SubscriptionHandle,
} from '@evo/infra';
import type { Projector, ProjectionContext } from './projector';
import { CHECKPOINTS, CHECKPOINT_ID, readCheckpoint, writeCheckpoint } from './checkpoint';

export interface RunnerOptions {
  events: EventStore;
  read: ReadStore;
  projectors: readonly Projector[];
  push?: PushBus;
  /** events per read-store transaction while catching up */
  batchSize?: number;
  onError?: (err: unknown) => void;
}

/** How far the read models are; the API waits on it for read-your-writes. */
export interface ProjectionProgress {
  /** resolves true once the read models include `position`, false after the timeout */
  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean>;
  /** have the read models caught up with the log as it was when they started? */
  isCaughtUp(): Promise<boolean>;
}

/** How far a catch-up or a load is: events applied, and the position of the last one. */
export type BatchProgress = (done: number, position: LogPosition | undefined) => void;

/** Not live: pushes are dropped (see ProjectionContext). Also the context of bench-rebuild's ceiling. */
export const CATCHING_UP: ProjectionContext = { live: false, push: () => undefined, rooms: () => undefined };

type Push =
  | { kind: 'emit'; room: string; event: string; payload: unknown }
  | { kind: 'join' | 'leave'; members: string; room: string };

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
 * batches (one read-store transaction per batch, checkpoint in the same transaction), then live
 * from a subscription (one transaction per event). Change messages are pushed only when live,
 * after their write is committed.
 */
export class ProjectionRunner implements ProjectionProgress {
  private position: LogPosition | undefined;
  private caughtUp = false;
  private subscription: SubscriptionHandle | undefined;
  private waiters: Array<{ position: LogPosition; resolve: (ok: boolean) => void }> = [];
  private readonly batchSize: number;
  /** live events received and not yet applied, in log order */
  private pending: RecordedEvent[] = [];
  private flushing: Promise<void> | undefined;
  private stopping = false;
  /** event type -> the projectors that declare it, in the projectors' order */
  private readonly routes: ReadonlyMap<string, readonly Projector[]>;

  constructor(private readonly options: RunnerOptions) {
    this.options = { ...options };
    this.batchSize = options.batchSize ?? 500;
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

  /** Catch up with the log, then keep following it. Resolves once caught up. */
  async start(onBatch?: BatchProgress): Promise<void> {
    this.position = await readCheckpoint(this.options.read);
    if (this.position === undefined) {
      await this.load(onBatch);
    } else {
      await this.ensureIndexes();
      await this.catchUp(onBatch);
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
   * start both come here. A store that holds nothing and can take over a ScratchStore
   * (MemoryReadStore) gets every event folded into one first, without transactions, copies or
   * index upkeep, then the lot at once (each index built once), checkpoint included: until then it
   * stays empty, and the position stays where it was. Any other store gets the batches of
   * `catchUp` (inside its bulkLoad when it has one: indexes built once the log is in, or when a
   * projector's query needs one). Resolves with the number of events read.
   */
  async load(onBatch?: BatchProgress): Promise<number> {
    const read = this.options.read;
    const fill = read.fillFromScratch?.bind(read);
    if (this.position !== undefined || !fill || (await read.listCollections()).length > 0) {
      const loadInBatches = async () => {
        await this.ensureIndexes();
        return this.catchUp(onBatch);
      };
      return read.bulkLoad ? read.bulkLoad(loadInBatches) : loadInBatches();
    }
    const scratch = new ScratchStore();
    await this.ensureIndexes(scratch);
    let done = 0;
    let last: LogPosition | undefined;
    for await (const batch of this.options.events.readAll(undefined, this.batchSize)) {
      for (const event of batch) {
        const projectors = this.routes.get(event.type);
        if (!projectors) continue;
        for (const projector of projectors) await projector.project(event as RecordedAppEvent, scratch, CATCHING_UP);
      }
      if (batch.length === 0) continue;
      last = batch[batch.length - 1].position;
      done += batch.length;
      onBatch?.(done, last);
    }
    if (last !== undefined) await writeCheckpoint(scratch, last);
    fill(scratch);
    this.position = last;
    this.notify();
    return done;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.subscription?.stop();
    this.subscription = undefined;
    await this.flushing;
    for (const w of this.waiters) w.resolve(false);
    this.waiters = [];
  }

  /** Replay the log after the checkpoint into the read models, a batch per transaction. */
  async catchUp(onBatch?: BatchProgress): Promise<number> {
    let done = 0;
    for await (const batch of this.options.events.readAll(this.position, this.batchSize)) {
      await this.applyBatch(batch, false);
      done += batch.length;
      onBatch?.(done, this.position);
    }
    return done;
  }

  /**
   * Live events are queued and applied in batches: whatever arrived while the previous batch was
   * being written goes into the next transaction (one checkpoint write per batch, not per event).
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
    let failures = 0;
    while (this.pending.length > 0 && !this.stopping) {
      const batch = this.pending.slice(0, this.batchSize);
      try {
        await this.applyBatch(batch, true);
        this.pending.splice(0, batch.length);
        failures = 0;
      } catch (err) {
        // never skip an event: report, back off, and apply the same batch again
        this.options.onError?.(err);
        failures++;
        await new Promise((r) => setTimeout(r, Math.min(5000, 50 * 2 ** failures)));
      }
    }
  }

  private async applyBatch(batch: RecordedEvent[], live: boolean): Promise<void> {
    if (batch.length === 0) return;
    let pushes: Push[] = [];
    const ctx: ProjectionContext = live
      ? {
          live,
          push: (room, event, payload) => pushes.push({ kind: 'emit', room, event, payload }),
          rooms: (members, room, action) => pushes.push({ kind: action, members, room }),
        }
      : CATCHING_UP;
    const last = batch[batch.length - 1].position;
    await this.options.read.withTransaction(async (tx) => {
      // a transaction may be re-run: keep only the pushes of the run that commits
      pushes = [];
      // the batch's documents are read once and each changed one written once, at the end
      const work = new WriteBehindStore(tx);
      for (const event of batch) {
        const projectors = this.routes.get(event.type);
        if (!projectors) continue;
        for (const projector of projectors) await projector.project(event as RecordedAppEvent, work, ctx);
      }
      await work.flush();
      await writeCheckpoint(tx, last);
    });
    this.position = last;
    this.notify();
    if (live && this.options.push) {
      const bus = this.options.push;
      for (const p of pushes) {
        const sent =
          p.kind === 'emit'
            ? bus.publish(p.room, p.event, p.payload)
            : p.kind === 'join'
              ? bus.joinRoom(p.members, p.room)
              : bus.leaveRoom(p.members, p.room);
        await sent.catch((err) => this.options.onError?.(err));
      }
    }
  }

  private notify() {
    const pos = this.position;
    this.waiters = this.waiters.filter((w) => {
      if (pos !== undefined && pos >= w.position) {
        w.resolve(true);
        return false;
      }
      return true;
    });
  }

  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    if (this.position !== undefined && this.position >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { position, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  async isCaughtUp(): Promise<boolean> {
    return this.caughtUp;
  }
}

export { CHECKPOINTS, CHECKPOINT_ID };
