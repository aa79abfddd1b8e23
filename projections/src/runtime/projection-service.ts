import { rename } from 'node:fs/promises';
import type { LogPosition } from '@evo/domain';
import {
  MemoryReadStore,
  SwitchableReadStore,
  childLogger,
  type EventStore,
  type PushBus,
  type ReadStore,
} from '@evo/infra';
import type { Projector } from './projector';
import { ProjectionRunner, type ProjectionProgress } from './runner';
import type { RebuildProgress } from './rebuild';
import {
  loadSnapshot,
  projectorFingerprint,
  saveSnapshot,
  type SnapshotLoad,
  type SnapshotPolicy,
  type SnapshotSave,
} from './snapshots';

const log = childLogger('snapshots');

export interface ProjectionServiceOptions {
  events: EventStore;
  projectors: readonly Projector[];
  push?: PushBus;
  /** a new, empty read store (for the first build and for each rebuild) */
  makeStore: () => ReadStore;
  onError?: (err: unknown) => void;
  /**
   * embedded: start from a snapshot of the memory read models and keep one up to date (at stop,
   * and every N events or M minutes); only used when makeStore() gives MemoryReadStores
   */
  snapshots?: SnapshotPolicy;
}

export type RebuildState =
  | { status: 'idle' }
  | ({ status: 'running'; startedAt: string } & RebuildProgress)
  | { status: 'done'; startedAt: string; finishedAt: string; events: number; seconds: number }
  | { status: 'failed'; startedAt: string; error: string };

/**
 * The read side of the embedded process: one live runner feeding the read models that queries
 * use (through a SwitchableReadStore), and rebuilds done beside them while the product keeps
 * serving; once a rebuilt set has caught up with the live one, queries switch to it.
 */
export class ProjectionService implements ProjectionProgress {
  readonly read: SwitchableReadStore;
  private live: ProjectionRunner;
  private rebuilding: Promise<void> | undefined;
  private state: RebuildState = { status: 'idle' };
  private readonly fingerprint: string | undefined;
  /** position of the newest snapshot on disk (loaded or written by this process) */
  private snapshotAt: bigint | undefined;
  private snapshotTime = Date.now();
  /** how long the last snapshot took to write (ms): the next waits at least 9 times that */
  private snapshotCost = 0;
  private snapshotting: Promise<SnapshotSave | undefined> | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  /** what start() did with the snapshot (tests and logs) */
  lastLoad: SnapshotLoad | undefined;
  private finishing: Promise<void> | undefined;

  constructor(private readonly options: ProjectionServiceOptions) {
    this.options = { ...options };
    const store = options.makeStore();
    this.read = new SwitchableReadStore(store);
    this.live = this.runnerFor(store, options.push);
    if (options.snapshots) this.fingerprint = options.snapshots.fingerprint ?? projectorFingerprint(options.projectors);
  }

  private runnerFor(read: ReadStore, push: PushBus | undefined) {
    const { events, projectors, onError } = this.options;
    return new ProjectionRunner({ events, read, projectors, push, onError });
  }

  /** the push bus exists once the HTTP server does, after this service */
  setPush(push: PushBus | undefined): void {
    this.options.push = push;
    this.live.setPush(push);
  }

  get currentPosition(): LogPosition | undefined {
    return this.live.currentPosition;
  }

  /** Load the snapshot if there is a usable one, catch up with the log from its checkpoint, follow the log. */
  async start(): Promise<void> {
    await this.loadSnapshot();
    try {
      await this.live.start();
    } catch (err) {
      if (!this.lastLoad?.loaded) throw err;
      // a snapshot that passed its checks yet cannot be decoded (a writer's bug): from the log instead
      await this.setSnapshotAside(err);
      await this.live.stop().catch(() => undefined);
      const store = this.options.makeStore();
      await this.read.switchTo(store).close();
      this.live = this.runnerFor(store, this.options.push);
      this.lastLoad = { loaded: false, reason: 'damaged', detail: (err as Error).message };
      await this.live.start();
    }
    const policy = this.options.snapshots;
    if (policy && (policy.everyEvents > 0 || policy.everyMinutes > 0)) {
      this.snapshotTimer = setInterval(() => this.maybeSnapshot(), 1000);
      this.snapshotTimer.unref();
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.snapshotTimer);
    this.snapshotTimer = undefined;
    await this.rebuilding?.catch(() => undefined);
    await this.live.stop();
    // the read models as they stop: the next start catches up from here
    if (this.options.snapshots)
      await this.snapshot().catch((err) => log.error({ err }, 'instantané des modèles de lecture impossible'));
  }

  private async loadSnapshot(): Promise<void> {
    const policy = this.options.snapshots;
    const store = this.read.current;
    if (!policy || !(store instanceof MemoryReadStore) || this.fingerprint === undefined) return;
    if ((await store.listCollections()).length > 0) return;
    const result = await loadSnapshot(policy.file, store, this.options.events, this.fingerprint).catch(
      (e: Error): SnapshotLoad => ({ loaded: false, reason: 'damaged', detail: e.message }),
    );
    this.lastLoad = result;
    if (result.loaded) {
      this.snapshotAt = result.position;
      this.snapshotTime = Date.now();
      log.info(
        {
          file: policy.file,
          position: result.position.toString(),
          documents: result.documents,
          bytes: result.bytes,
          ms: Math.round(result.ms),
        },
        'modèles de lecture chargés depuis l’instantané ; rattrapage du journal depuis son point de reprise',
      );
    } else if (result.reason === 'missing') {
      log.info({ file: policy.file }, 'aucun instantané des modèles de lecture : reconstruction depuis le journal');
    } else {
      await store.dropAll();
      log.warn(
        { file: policy.file, reason: result.reason, detail: result.detail },
        `instantané ignoré (${result.detail}) : reconstruction depuis le journal`,
      );
    }
  }

  /**
   * Makes, beside the requests and a slice at a time, the documents of the loaded snapshot that
   * nothing used yet (MemoryReadStore.finishLoading; until then each collection is made when first
   * used). Called once the server listens, so that the rest of a start does not wait for it.
   * Resolves when they are all made (at once when no snapshot was loaded).
   */
  finishLoading(): Promise<void> {
    const store = this.read.current;
    if (!(store instanceof MemoryReadStore) || store.encodedCollections().length === 0) return Promise.resolve();
    this.finishing ??= store.finishLoading().then(
      ({ ms, maxBlockMs }) =>
        log.info(
          { ms: Math.round(ms), maxBlockMs: Math.round(maxBlockMs) },
          'modèles de lecture de l’instantané tous en mémoire',
        ),
      // the store cannot answer what it did not make: the read models are rebuilt beside it
      (err) =>
        this.setSnapshotAside(err)
          .then(() => this.rebuild())
          .catch((e) => log.error({ err: e }, 'reconstruction des modèles de lecture impossible')),
    );
    return this.finishing;
  }

  /**
   * The loaded snapshot turned out altered (a block checked when read) or could not be decoded
   * after all: renamed aside (the next start does not load it again; kept for a look), and the
   * next snapshot is written whatever the position.
   */
  private async setSnapshotAside(err: unknown): Promise<void> {
    const file = this.options.snapshots?.file;
    if (!file) return;
    const aside = `${file}.illisible`;
    await rename(file, aside).catch(() => undefined);
    this.snapshotAt = undefined;
    log.error(
      { err, file, aside },
      'instantané altéré ou illisible, trouvé en le lisant : mis de côté, modèles de lecture reconstruits depuis le journal',
    );
  }

  private maybeSnapshot(): void {
    const policy = this.options.snapshots;
    const at = this.live.currentPosition;
    if (!policy || this.snapshotting || at === undefined || at === this.snapshotAt) return;
    // SQLite positions are contiguous: the difference is the number of events applied since
    const events = this.snapshotAt === undefined ? at : at - this.snapshotAt;
    const since = Date.now() - this.snapshotTime;
    const due =
      (policy.everyEvents > 0 && events >= BigInt(policy.everyEvents)) ||
      (policy.everyMinutes > 0 && since >= policy.everyMinutes * 60_000);
    // a big store under heavy writes: snapshots take at most a tenth of the time
    if (due && since < 9 * this.snapshotCost) return;
    if (due) this.snapshot().catch((err) => log.error({ err }, 'instantané des modèles de lecture impossible'));
  }

  /**
   * Snapshot the read models queries are served from now (after a rebuild: the rebuilt ones), with
   * their checkpoint. One at a time; nothing is written when nothing changed since the last one.
   */
  snapshot(): Promise<SnapshotSave | undefined> {
    const previous = this.snapshotting ?? Promise.resolve(undefined);
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const policy = this.options.snapshots;
        const store = this.read.current;
        if (!policy || !(store instanceof MemoryReadStore) || this.fingerprint === undefined) return undefined;
        if (this.live.currentPosition !== undefined && this.live.currentPosition === this.snapshotAt) return undefined;
        const started = Date.now();
        const saved = await saveSnapshot(policy.file, store, this.options.events, this.fingerprint);
        this.snapshotTime = Date.now();
        this.snapshotCost = this.snapshotTime - started;
        if (saved) {
          this.snapshotAt = saved.position;
          log.info(
            {
              file: policy.file,
              position: saved.position.toString(),
              documents: saved.documents,
              bytes: saved.bytes,
              ms: Math.round(saved.ms),
              maxBlockMs: Math.round(saved.maxBlockMs + saved.captureMs),
            },
            'instantané des modèles de lecture écrit',
          );
        }
        return saved;
      });
    this.snapshotting = next;
    void next
      .finally(() => {
        if (this.snapshotting === next) this.snapshotting = undefined;
      })
      .catch(() => undefined);
    return next;
  }

  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    return this.live.waitFor(position, timeoutMs);
  }

  isCaughtUp(): Promise<boolean> {
    return this.live.isCaughtUp();
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
    report({ status: 'running', startedAt, done: 0, rate: 0, etaSeconds: 0, fraction: 0 });
    let store: ReadStore;
    try {
      store = this.options.makeStore();
    } catch (e) {
      report({ status: 'failed', startedAt, error: (e as Error).message });
      throw e;
    }
    const next = this.runnerFor(store, undefined);
    try {
      const last = (await this.options.events.lastPosition()) ?? 0n;
      let applied = 0;
      await next.start((done, at) => {
        applied = done;
        const seconds = (performance.now() - started) / 1000;
        const pos = at ?? 0n;
        const fraction = last === 0n ? 1 : Math.min(1, Number((pos * 10_000n) / last) / 10_000);
        report({
          status: 'running',
          startedAt,
          done,
          rate: seconds > 0 ? done / seconds : 0,
          etaSeconds: fraction > 0 ? (seconds / fraction) * (1 - fraction) : 0,
          fraction,
        });
      });
      // both runners follow the log now: switch once the new one has what the live one has
      const target = this.live.currentPosition;
      if (target !== undefined && !(await next.waitFor(target, 60_000)))
        throw new Error('la reconstruction ne rattrape pas le journal');
      const old = this.live;
      next.setPush(this.options.push);
      old.setPush(undefined);
      this.live = next;
      const previous = this.read.switchTo(store);
      await old.stop();
      await previous.close();
      const seconds = (performance.now() - started) / 1000;
      report({ status: 'done', startedAt, finishedAt: new Date().toISOString(), events: applied, seconds });
    } catch (e) {
      await next.stop();
      await store.close();
      report({ status: 'failed', startedAt, error: (e as Error).message });
      throw e;
    }
  }
}
