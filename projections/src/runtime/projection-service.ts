import type { LogPosition } from '@evo/domain';
import { childLogger, eventIdAt, type EventStore, type PushBus, type ReadStore } from '@evo/infra';
import type { Projector } from './projector';
import { ProjectionRunner, type BatchProgress, type ProjectionProgress } from './runner';
import type { RebuildProgress } from './rebuild';
import { readCheckpointDoc } from './checkpoint';
import { projectorFingerprint } from './fingerprint';
import type { FreshReadModels, ReadModelGenerations } from './read-model-files';
import { SwitchableReadStore } from './switchable-read-store';

const log = childLogger('read-models');

export interface ProjectionServiceOptions {
  events: EventStore;
  projectors: readonly Projector[];
  push?: PushBus;
  /** the read models in use, and fresh ones for rebuilds (blue/green) */
  generations: ReadModelGenerations;
  /** a batch that failed and is retried, a push not sent: logged unless given */
  onError?: (err: unknown) => void;
  /** projectorFingerprint(projectors) unless given (tests give another to play an older version) */
  fingerprint?: string;
  /** the read models that queries use include every event up to `position` (after its commit) */
  onLivePosition?: (position: LogPosition) => void;
  /**
   * queries are served from `store` from now on (a rebuilt set, or an empty one in place of a
   * damaged file), which holds the log up to `position`; the positions given to onLivePosition
   * are its own from now on. Awaited before the set it replaces is closed and removed.
   */
  onServe?: (store: ReadStore, position: LogPosition | undefined) => Promise<void>;
}

export type RebuildState =
  | { status: 'idle' }
  | ({ status: 'running'; startedAt: string } & RebuildProgress)
  | { status: 'done'; startedAt: string; finishedAt: string; events: number; seconds: number }
  | { status: 'failed'; startedAt: string; error: string };

/** A rebuild that starts now, before its first event. */
export const rebuildStarting = (startedAt = new Date().toISOString()): RebuildState => ({
  status: 'running',
  startedAt,
  done: 0,
  rate: 0,
  etaSeconds: 0,
  fraction: 0,
});

/**
 * The embedded process's read side as the request thread uses it: a ProjectionService in the same
 * thread (PROJECTIONS_THREAD=false, read models in MongoDB, tests that hand it their own
 * projectors), or one in a thread of its own (ProjectionThread, projection-thread.ts).
 */
export interface ReadSide extends ProjectionProgress {
  /** the read models that queries use (switched when a rebuild is done) */
  readonly read: ReadStore;
  readonly currentPosition: LogPosition | undefined;
  setPush(push: PushBus | undefined): void;
  start(): Promise<void>;
  followReplays(): void;
  resume(name: string): Promise<void>;
  rebuild(onProgress?: (p: RebuildState) => void): Promise<void>;
  rebuildState(): RebuildState;
  stop(): Promise<void>;
}

/**
 * The read side of the embedded process: one live runner feeding the read models that queries
 * use (through a SwitchableReadStore), and rebuilds made beside them into a fresh set while the
 * product keeps serving; once the rebuilt set has caught up with the live one, queries switch to
 * it and it becomes the current set for good (ReadModelGenerations.promote).
 */
export class ProjectionService implements ReadSide {
  readonly read: SwitchableReadStore;
  private live: ProjectionRunner;
  private rebuilding: Promise<void> | undefined;
  private state: RebuildState = { status: 'idle' };
  readonly fingerprint: string;
  private watcher: NodeJS.Timeout | undefined;

  constructor(private readonly options: ProjectionServiceOptions) {
    this.options = { onError: (err) => log.error({ err }, 'projection error, retrying'), ...options };
    this.fingerprint = options.fingerprint ?? projectorFingerprint(options.projectors);
    const store = options.generations.current();
    this.read = new SwitchableReadStore(store);
    this.live = this.runnerFor(store, options.push);
  }

  private runnerFor(read: ReadStore, push: PushBus | undefined) {
    const { events, projectors, onError } = this.options;
    const runner: ProjectionRunner = new ProjectionRunner({
      events,
      read,
      projectors,
      push,
      onError,
      fingerprint: this.fingerprint,
      onPosition: (position) => {
        if (runner === this.live) this.options.onLivePosition?.(position);
      },
    });
    return runner;
  }

  /** the push bus exists once the HTTP server does, after this service */
  setPush(push: PushBus | undefined): void {
    this.options.push = push;
    this.live.setPush(push);
  }

  get currentPosition(): LogPosition | undefined {
    return this.live.currentPosition;
  }

  /**
   * Read models that this code and this log cannot continue (built by other projections code,
   * ahead of the log, of another log) are rebuilt from the log before anything is served; the
   * others catch up from their checkpoint (pushing the changes after `pushAfter`, see the
   * runner's start). Then the log is followed.
   */
  async start(pushAfter?: LogPosition): Promise<void> {
    let why: string | undefined;
    try {
      why = await this.whyNotUsable(this.read.current);
    } catch (err) {
      // a damaged file: set aside (kept for a look), and the read models built again in a new one
      const store = this.options.generations.replaceDamaged((err as Error).message);
      this.read.switchTo(store);
      this.live = this.runnerFor(store, this.options.push);
      await this.options.onServe?.(store, undefined);
    }
    if (why) {
      log.warn({ reason: why }, `modèles de lecture ${why} : reconstruction depuis le journal`);
      await this.buildFresh(undefined, progressLog());
      return;
    }
    const checkpoint = await readCheckpointDoc(this.read.current).catch(() => undefined);
    const report = checkpoint ? undefined : progressLog();
    if (!checkpoint) log.info('modèles de lecture vides : construction depuis le journal');
    await this.live.start(report && ((done, at) => report(done, at, this.options.events)), pushAfter);
  }

  private async whyNotUsable(store: ReadStore): Promise<string | undefined> {
    const checkpoint = await readCheckpointDoc(store);
    if (!checkpoint) return (await store.listCollections()).length > 0 ? 'sans point de reprise' : undefined;
    if (checkpoint.fingerprint !== this.fingerprint) return 'construits par une autre version des projections';
    const last = (await this.options.events.lastPosition()) ?? 0n;
    if (checkpoint.position > last) return `en avance sur le journal (${checkpoint.position} > ${last})`;
    if (
      checkpoint.eventId !== undefined &&
      (await eventIdAt(this.options.events, checkpoint.position)) !== checkpoint.eventId
    )
      return `d'un autre journal (l'événement ${checkpoint.position} n'est pas le leur)`;
    return undefined;
  }

  async stop(): Promise<void> {
    clearInterval(this.watcher);
    await this.rebuilding?.catch(() => undefined);
    await this.live.stop();
    await this.options.generations.close?.();
  }

  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    return this.live.waitFor(position, timeoutMs);
  }

  isCaughtUp(): Promise<boolean> {
    return this.live.isCaughtUp();
  }

  health() {
    return this.live.health();
  }

  /** A projector stopped on an event, brought up to date and running again (see ProjectionRunner.resume). */
  resume(name: string): Promise<void> {
    return this.live.resume(name);
  }

  rebuildState(): RebuildState {
    return this.state;
  }

  /**
   * Rebuild every read model from the log in the background. `onProgress` hears how far it is;
   * resolves (the returned promise) when the product serves from the rebuilt read models.
   * A second call while one runs joins it.
   */
  rebuild(onProgress?: (p: RebuildState) => void): Promise<void> {
    this.rebuilding ??= this.doRebuild(onProgress).finally(() => {
      this.rebuilding = undefined;
    });
    return this.rebuilding;
  }

  private async doRebuild(onProgress?: (p: RebuildState) => void): Promise<void> {
    const startedAt = new Date().toISOString();
    const started = performance.now();
    const report = (s: RebuildState) => {
      this.state = s;
      onProgress?.(s);
    };
    // reported before the first await: once rebuild() returns, rebuildState() says it runs
    report(rebuildStarting(startedAt));
    try {
      const applied = await this.buildFresh((p) => report({ status: 'running', startedAt, ...p }));
      const seconds = (performance.now() - started) / 1000;
      report({ status: 'done', startedAt, finishedAt: new Date().toISOString(), events: applied, seconds });
    } catch (e) {
      report({ status: 'failed', startedAt, error: (e as Error).message });
      throw e;
    }
  }

  /**
   * A fresh set of read models built from the whole log beside the current one, then swapped in:
   * queries switch to it once it has what the live set has, the old runner stops, and the fresh
   * set becomes the current one (a crash before that leaves the old set current).
   */
  private async buildFresh(
    onProgress?: (p: RebuildProgress) => void,
    logProgress?: ReturnType<typeof progressLog>,
  ): Promise<number> {
    const fresh = await this.options.generations.fresh();
    const started = performance.now();
    const last = (await this.options.events.lastPosition()) ?? 0n;
    let applied = 0;
    await this.switchTo(fresh, (done, at) => {
      applied = done;
      logProgress?.(done, at, this.options.events);
      const seconds = (performance.now() - started) / 1000;
      const pos = at ?? 0n;
      const fraction = last === 0n ? 1 : Math.min(1, Number((pos * 10_000n) / last) / 10_000);
      onProgress?.({
        done,
        rate: seconds > 0 ? done / seconds : 0,
        etaSeconds: fraction > 0 ? (seconds / fraction) * (1 - fraction) : 0,
        fraction,
      });
    });
    return applied;
  }

  /**
   * Another set of read models swapped in: a runner on it catches up (from empty, or from its
   * checkpoint) and follows the log; queries switch to it once it has what the live set has, the
   * old runner stops, and the set becomes the current one for good (a crash before that leaves the
   * old set current). A failure leaves the old set serving and removes the new one.
   */
  private async switchTo(next: FreshReadModels, onBatch?: BatchProgress): Promise<void> {
    const runner = this.runnerFor(next.store, undefined);
    try {
      await runner.start(onBatch);
      // both runners follow the log now: switch once the new one has what the live one has
      const target = this.live.currentPosition;
      if (target !== undefined && !(await runner.waitFor(target, 60_000)))
        throw new Error('la reconstruction ne rattrape pas le journal');
      const old = this.live;
      runner.setPush(this.options.push);
      old.setPush(undefined);
      this.live = runner;
      this.read.switchTo(next.store);
      await this.options.onServe?.(next.store, runner.currentPosition);
      await old.stop();
      await next.promote();
    } catch (e) {
      await runner.stop();
      await next.discard().catch(() => undefined);
      throw e;
    }
  }

  /**
   * Read models that `npm run replay` made current beside this running process: looked for every
   * `everyMs`, caught up and switched to (the old file removed) as a rebuild here would.
   */
  followReplays(everyMs = 2000): void {
    const look = async () => {
      if (this.rebuilding) return;
      const newer = await this.options.generations.newerSet?.();
      if (!newer) return;
      log.info('modèles de lecture reconstruits par « npm run replay » : bascule sur eux');
      this.rebuilding = this.switchTo(newer).finally(() => {
        this.rebuilding = undefined;
      });
      await this.rebuilding;
    };
    this.watcher = setInterval(() => {
      look().catch((err) => log.error({ err }, 'bascule sur les modèles de lecture reconstruits impossible'));
    }, everyMs);
    this.watcher.unref();
  }
}

/** Progress of a build from the log as log lines, one every 5 s at most. */
function progressLog() {
  let lastLine = 0;
  let last: bigint | undefined;
  return (done: number, at: LogPosition | undefined, events: EventStore) => {
    const now = performance.now();
    if (now - lastLine < 5000) return;
    lastLine = now;
    void (async () => {
      last ??= (await events.lastPosition()) ?? 0n;
      const percent = last === 0n || at === undefined ? 100 : Number((at * 100n) / last);
      log.info({ done, position: at?.toString(), percent }, `modèles de lecture : ${percent} % du journal relu`);
    })();
  };
}
