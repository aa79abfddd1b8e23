import type { MessagePort, Worker } from 'node:worker_threads';
import type { LogPosition } from '@evo/domain';
import { PositionWaiters, SqliteReadStore, childLogger, type PushBus, type ReadStore } from '@evo/infra';
import { sendPush, type ProjectionHealth, type Push } from './runner';
import { rebuildStarting, type ProjectionService, type ReadSide, type RebuildState } from './projection-service';
import { SwitchableReadStore } from './switchable-read-store';
import { hasEnded, startThreadWorker } from './thread-worker';

const log = childLogger('read-models');

/** What the embedded process asks its projections' thread (ProjectionService's methods, by name). */
type Call =
  | { method: 'start'; pushAfter?: LogPosition }
  | { method: 'followReplays' }
  | { method: 'health' }
  | { method: 'isCaughtUp' }
  | { method: 'resume'; name: string }
  | { method: 'rebuild' }
  | { method: 'stop' };

type ToThread = { op: 'data'; data: unknown } | ({ op: 'call'; id: number } & Call) | { op: 'served'; id: number };

type FromThread =
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: string }
  | { kind: 'position'; position: LogPosition }
  | { kind: 'push'; push: Push }
  | { kind: 'rebuild'; state: RebuildState }
  /** queries are served from this file from now on: answered with 'served' once they are */
  | { kind: 'serve'; id: number; file: string; position: LogPosition | undefined };

/** The read-model file a store keeps (the thread's are SQLite files; undefined for MongoDB). */
const fileOf = (store: ReadStore): string | undefined => (store instanceof SqliteReadStore ? store.file : undefined);

/** Before the thread names its file: queries fail as a closed store's do. */
const NOT_STARTED: ReadStore = new Proxy({} as ReadStore, {
  get: (_t, key) =>
    key === 'close' ? async () => undefined : () => Promise.reject(new Error('read models not open yet')),
});

export interface ProjectionThreadOptions {
  /**
   * the thread's module (JavaScript, or TypeScript run through tsx): it builds a ProjectionService
   * with projectionThreadSide's hooks and serves it
   */
  entry: URL;
  /** what that module needs (configuration, the log's DurableMark buffer), read there with projectionThreadSide's data() */
  data: unknown;
  /** the first thread's worker, started on `entry` beforehand (startThreadWorker); later ones are started here */
  worker?: Worker;
  /** wait before starting a new thread once one died; doubled after each death that follows soon, up to 30 s */
  restartDelayMs?: number;
}

/** A thread that lived this long before dying is restarted after the first delay again. */
const HEALTHY_RUN_MS = 60_000;
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * The embedded read side run in a worker thread: the thread runs the same ProjectionService as
 * everywhere else, with its own connections to the log and to the read models, and this side, on
 * the request thread, answers queries from the read models' file through read-only connections,
 * relays the pushes the thread posts once their batch is committed, and waits on the positions it
 * posts. So the projectors' work no longer holds the requests' event loop.
 */
export class ProjectionThread implements ReadSide {
  readonly read = new SwitchableReadStore(NOT_STARTED);
  private worker: Worker;
  private startedAt = 0;
  private readonly firstRestartDelayMs: number;
  private restartDelayMs: number;
  private restartTimer: NodeJS.Timeout | undefined;
  private followingReplays = false;
  private position: LogPosition | undefined;
  private readonly waiters = new PositionWaiters((p) => this.position !== undefined && this.position >= p);
  private push: PushBus | undefined;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private state: RebuildState = { status: 'idle' };
  private rebuilding: Promise<void> | undefined;
  private onRebuildProgress: ((s: RebuildState) => void) | undefined;
  /** the thread died: why (in /ready), and every call fails */
  private failure: string | undefined;
  private stopped = false;

  constructor(private readonly options: ProjectionThreadOptions) {
    this.firstRestartDelayMs = options.restartDelayMs ?? 1000;
    this.restartDelayMs = this.firstRestartDelayMs;
    this.worker = this.spawn(options.worker);
  }

  /** A thread on `started` if it is still alive, else on a new worker; it is given its data. */
  private spawn(started?: Worker): Worker {
    const worker = started && !hasEnded(started) ? started : startThreadWorker(this.options.entry);
    worker.postMessage({ op: 'data', data: this.options.data } satisfies ToThread);
    // a dead thread's last words are not the new one's
    worker.on('message', (m: FromThread) => {
      if (worker === this.worker) this.receive(m);
    });
    worker.on('error', (err) => {
      if (worker === this.worker) this.fail(err.message);
    });
    worker.on('exit', (code) => {
      if (worker === this.worker && !this.stopped) this.fail(`sorti avec le code ${code}`);
    });
    this.startedAt = Date.now();
    return worker;
  }

  private fail(why: string): void {
    if (this.failure) return;
    this.failure = `le fil des projections s'est arrêté (${why})`;
    if (this.state.status === 'running')
      this.state = { status: 'failed', startedAt: this.state.startedAt, error: this.failure };
    for (const { reject } of this.calls.values()) reject(new Error(this.failure));
    this.calls.clear();
    // waits go on (each within its own time): the next thread may well reach their positions
    if (this.stopped) return;
    if (Date.now() - this.startedAt >= HEALTHY_RUN_MS) this.restartDelayMs = this.firstRestartDelayMs;
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
    log.error({ why, restartInMs: delay }, `modèles de lecture : ${this.failure} ; relancé dans ${delay} ms`);
    this.restartTimer = setTimeout(() => void this.restart(), delay);
  }

  /**
   * A new thread over the same files: it resumes each projection from its checkpoint (committed
   * with its batch), as a process start does, and queries go on from the file it serves.
   */
  private async restart(): Promise<void> {
    this.restartTimer = undefined;
    void this.worker.terminate();
    this.worker = this.spawn();
    this.failure = undefined;
    try {
      await this.start();
      if (this.stopped) return;
      if (this.followingReplays) this.followReplays();
      log.info({ position: this.position?.toString() }, 'modèles de lecture : fil des projections relancé');
    } catch (err) {
      // died again while starting: fail() has planned the next try; or the thread refused to start
      this.fail((err as Error).message);
    }
  }

  private call<R>(call: Call): Promise<R> {
    if (this.failure) return Promise.reject(new Error(this.failure));
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ op: 'call', id, ...call } satisfies ToThread);
    });
  }

  private receive(m: FromThread): void {
    switch (m.kind) {
      case 'reply': {
        const pending = this.calls.get(m.id);
        this.calls.delete(m.id);
        if (m.ok) pending?.resolve(m.value);
        else pending?.reject(new Error(m.error));
        return;
      }
      case 'position':
        this.position = m.position;
        this.waiters.notify();
        return;
      case 'push':
        if (this.push) sendPush(this.push, m.push).catch((err: unknown) => log.warn({ err }, 'push failed'));
        return;
      case 'rebuild':
        this.state = m.state;
        this.onRebuildProgress?.(m.state);
        return;
      case 'serve':
        this.serve(m.file, m.position).then(
          () => this.worker.postMessage({ op: 'served', id: m.id } satisfies ToThread),
          (err: unknown) => this.fail((err as Error).message),
        );
    }
  }

  /** Queries switch to `file` (opened read-only here); the set they leave is closed before the thread removes it. */
  private async serve(file: string, position: LogPosition | undefined): Promise<void> {
    const next = new SqliteReadStore(file, false, { readOnly: true });
    const previous = this.read.switchTo(next);
    // the positions that follow are the new set's (it may be a batch behind the old one)
    this.position = position;
    await previous.close();
  }

  get currentPosition(): LogPosition | undefined {
    return this.position;
  }

  setPush(push: PushBus | undefined): void {
    this.push = push;
  }

  /** The thread catches up (or builds the read models) and follows the log; resolves once queries can be answered. */
  async start(): Promise<void> {
    // a thread started again: what the last one had not pushed yet is pushed by this one
    const { file, position } = await this.call<{ file: string; position: LogPosition | undefined }>({
      method: 'start',
      pushAfter: this.position,
    });
    await this.serve(file, position);
    this.waiters.notify();
  }

  followReplays(): void {
    this.followingReplays = true;
    this.call({ method: 'followReplays' }).catch((err: unknown) => log.error({ err }, 'followReplays'));
  }

  waitFor(position: LogPosition, timeoutMs: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return this.waiters.wait(position, timeoutMs);
  }

  isCaughtUp(): Promise<boolean> {
    return this.failure ? Promise.resolve(false) : this.call({ method: 'isCaughtUp' });
  }

  async health(): Promise<ProjectionHealth> {
    if (this.failure) return { caughtUp: false, stopped: [], storeError: this.failure };
    return this.call({ method: 'health' });
  }

  resume(name: string): Promise<void> {
    return this.call({ method: 'resume', name });
  }

  rebuildState(): RebuildState {
    return this.state;
  }

  rebuild(onProgress?: (p: RebuildState) => void): Promise<void> {
    if (this.rebuilding) return this.rebuilding;
    // said before the first await, as ProjectionService does: rebuildState() tells it runs
    this.state = rebuildStarting();
    this.onRebuildProgress = onProgress;
    this.rebuilding = this.call<void>({ method: 'rebuild' }).finally(() => {
      this.rebuilding = undefined;
      this.onRebuildProgress = undefined;
    });
    return this.rebuilding;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    clearTimeout(this.restartTimer);
    await this.call({ method: 'stop' }).catch((err: unknown) => {
      if (!this.failure) log.error({ err }, 'arrêt du fil des projections');
    });
    this.stopped = true;
    this.waiters.cancelAll();
    await this.worker.terminate();
  }
}

/** The push bus of the projections' thread: each push posted to the request thread, which sends it. */
class PostedPushBus implements PushBus {
  constructor(private readonly port: MessagePort) {}
  private post(push: Push): Promise<void> {
    this.port.postMessage({ kind: 'push', push } satisfies FromThread);
    return Promise.resolve();
  }
  publish(room: string, event: string, payload: unknown): Promise<void> {
    return this.post({ kind: 'emit', room, event, payload });
  }
  joinRoom(members: string, room: string): Promise<void> {
    return this.post({ kind: 'join', members, room });
  }
  leaveRoom(members: string, room: string): Promise<void> {
    return this.post({ kind: 'leave', members, room });
  }
  async close(): Promise<void> {}
}

/**
 * The projections' thread's side: `data()` is what the request thread gave it (its
 * ProjectionThreadOptions.data); the hooks a ProjectionService built with it is given (positions,
 * pushes and the files it serves from, posted to the request thread); then `serve` answers the
 * request thread's calls with it (those that came before are answered then).
 */
export function projectionThreadSide(port: MessagePort) {
  const served = new Map<number, () => void>();
  let nextId = 1;
  const post = (m: FromThread) => port.postMessage(m);
  let service: ProjectionService | undefined;
  let close: (() => Promise<void>) | undefined;
  let given: (data: unknown) => void;
  const data = new Promise<unknown>((resolve) => (given = resolve));
  const early: Array<Extract<ToThread, { op: 'call' }>> = [];

  const hooks = {
    push: new PostedPushBus(port) as PushBus,
    onLivePosition: (position: LogPosition) => post({ kind: 'position', position }),
    /** waits until the request thread queries `store` (its own read-only connections), so the old file can go */
    onServe: (store: ReadStore, position: LogPosition | undefined) => {
      const file = fileOf(store);
      if (file === undefined) return Promise.resolve();
      const id = nextId++;
      return new Promise<void>((resolve) => {
        served.set(id, resolve);
        post({ kind: 'serve', id, file, position });
      });
    },
  };

  const answer = async (s: ProjectionService, call: Call): Promise<unknown> => {
    switch (call.method) {
      case 'start': {
        await s.start(call.pushAfter);
        return { file: fileOf(s.read.current), position: s.currentPosition };
      }
      case 'followReplays':
        return s.followReplays();
      case 'health':
        return s.health();
      case 'isCaughtUp':
        return s.isCaughtUp();
      case 'resume':
        return s.resume(call.name);
      case 'rebuild':
        return s.rebuild((state) => post({ kind: 'rebuild', state }));
      case 'stop':
        return s.stop();
    }
  };

  const handle = (s: ProjectionService, { op: _op, id, ...call }: Extract<ToThread, { op: 'call' }>) =>
    answer(s, call)
      .then(async (value) => {
        if (call.method === 'stop') await close?.();
        post({ kind: 'reply', id, ok: true, value });
      })
      .catch((err: unknown) => post({ kind: 'reply', id, ok: false, error: (err as Error)?.message ?? String(err) }));

  // listening from the start: the data, and calls made while the thread still opens its connections
  port.on('message', (m: ToThread) => {
    if (m.op === 'data') given(m.data);
    else if (m.op === 'served') {
      served.get(m.id)?.();
      served.delete(m.id);
    } else if (service) void handle(service, m);
    else early.push(m);
  });

  return {
    hooks,
    data: <T>() => data as Promise<T>,
    /** Calls from the request thread answered by `s`; `closeAll` (after a stop) closes what the thread opened. */
    serve(s: ProjectionService, closeAll: () => Promise<void>) {
      service = s;
      close = closeAll;
      for (const m of early.splice(0)) void handle(s, m);
    },
  };
}
