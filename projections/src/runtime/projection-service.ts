import type { LogPosition } from '@evo/domain';
import { SwitchableReadStore, type EventStore, type PushBus, type ReadStore } from '@evo/infra';
import type { Projector } from './projector';
import { ProjectionRunner, type ProjectionProgress } from './runner';
import type { RebuildProgress } from './rebuild';

export interface ProjectionServiceOptions {
  events: EventStore;
  projectors: readonly Projector[];
  push?: PushBus;
  /** a new, empty read store (for the first build and for each rebuild) */
  makeStore: () => ReadStore;
  onError?: (err: unknown) => void;
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

  constructor(private readonly options: ProjectionServiceOptions) {
    this.options = { ...options };
    const store = options.makeStore();
    this.read = new SwitchableReadStore(store);
    this.live = this.runnerFor(store, options.push);
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

  start(): Promise<void> {
    return this.live.start();
  }

  async stop(): Promise<void> {
    await this.rebuilding?.catch(() => undefined);
    await this.live.stop();
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
      await next.start((done) => {
        applied = done;
        const seconds = (performance.now() - started) / 1000;
        const pos = next.currentPosition ?? 0n;
        const fraction = last === 0n ? 1 : Math.min(1, Number((pos * 10_000n) / last) / 10_000);
        report({ status: 'running', startedAt, done, rate: seconds > 0 ? done / seconds : 0, etaSeconds: fraction > 0 ? (seconds / fraction) * (1 - fraction) : 0, fraction });
      });
      // both runners follow the log now: switch once the new one has what the live one has
      const target = this.live.currentPosition;
      if (target !== undefined && !(await next.waitFor(target, 60_000))) throw new Error('la reconstruction ne rattrape pas le journal');
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
