import { randomUUID } from 'node:crypto';
import type { JobMap, JobType } from '@evo/domain';
import { childLogger } from '../logger';
import type { AddJobOptions, JobContext, JobHandler, JobHandlers, JobQueue } from './port';

/** How long a finished job is remembered; while it is, an add with its id is ignored (as BullMQ's removeOn*). */
export interface JobRetention {
  ageMs: number;
  count: number;
}

export interface InProcessJobQueueOptions {
  /** total tries when add() does not say, default 3 */
  defaultAttempts?: number;
  /** first retry delay when add() does not say, default 1000 ms */
  defaultBackoffMs?: number;
  /** default 1 hour / 1000 jobs, the same as the BullMQ adapter's removeOnComplete */
  keepCompleted?: JobRetention;
  /** default 7 days / 5000 jobs, the same as the BullMQ adapter's removeOnFail */
  keepFailed?: JobRetention;
}

// Defaults shared with the BullMQ adapter, so both behave the same when the caller says nothing.
export const DEFAULT_JOB_ATTEMPTS = 3;
export const DEFAULT_JOB_BACKOFF_MS = 1000;
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;
export const DEFAULT_KEEP_COMPLETED: JobRetention = { ageMs: 3_600_000, count: 1000 };
export const DEFAULT_KEEP_FAILED: JobRetention = { ageMs: 7 * 24 * 3_600_000, count: 5000 };

interface Job {
  id: string;
  type: JobType;
  data: JobMap[JobType];
  attempts: number;
  backoffMs: number;
  /** tries started so far */
  attemptsMade: number;
  finishedAt?: number;
  error?: string;
}

interface DrainWaiter {
  resolve(): void;
  timer: NodeJS.Timeout;
}

const log = childLogger('jobs');

/** Generic over JobMap so that new job types need no change here. */
export function runHandler<K extends JobType>(
  handlers: JobHandlers,
  type: K,
  data: JobMap[K],
  ctx: JobContext,
): Promise<void> {
  const handler: JobHandler<K> = handlers[type];
  return handler(data, ctx);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** add() options with defaults applied, validated the same way by both adapters. */
export function resolveAddOptions(
  options: AddJobOptions,
  defaults: { attempts: number; backoffMs: number },
): { attempts: number; backoffMs: number; delayMs: number } {
  return {
    attempts: positiveInteger('attempts', options.attempts ?? defaults.attempts),
    backoffMs: nonNegative('backoffMs', options.backoffMs ?? defaults.backoffMs),
    delayMs: nonNegative('delayMs', options.delayMs ?? 0),
  };
}

export function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1, got ${value}`);
  return value;
}

export function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a number >= 0, got ${value}`);
  return value;
}

/**
 * The embedded JobQueue: jobs live in this process's memory and are lost on exit, which is acceptable
 * for the single-process mode (an interrupted video upload is re-sent by its user). Semantics follow the
 * BullMQ adapter so the same contract suite passes on both.
 */
export class InProcessJobQueue implements JobQueue {
  private readonly defaultAttempts: number;
  private readonly defaultBackoffMs: number;
  private readonly keepCompleted: JobRetention;
  private readonly keepFailed: JobRetention;

  /** every job that still blocks its id: waiting, delayed, active, or finished and retained */
  private readonly jobs = new Map<string, Job>();
  private readonly waiting: Job[] = [];
  /** delayed jobs and retries waiting for their backoff */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** finished jobs in finish order, for retention pruning */
  private readonly completed = new Map<string, Job>();
  private readonly failedJobs = new Map<string, Job>();
  private readonly running = new Set<Promise<void>>();
  private readonly drainWaiters = new Set<DrainWaiter>();

  private handlers: JobHandlers | undefined;
  private concurrency = 1;
  private active = 0;
  private closed = false;

  constructor(options: InProcessJobQueueOptions = {}) {
    this.defaultAttempts = positiveInteger('defaultAttempts', options.defaultAttempts ?? DEFAULT_JOB_ATTEMPTS);
    this.defaultBackoffMs = nonNegative('defaultBackoffMs', options.defaultBackoffMs ?? DEFAULT_JOB_BACKOFF_MS);
    this.keepCompleted = options.keepCompleted ?? DEFAULT_KEEP_COMPLETED;
    this.keepFailed = options.keepFailed ?? DEFAULT_KEEP_FAILED;
  }

  async add<K extends JobType>(type: K, data: JobMap[K], options: AddJobOptions = {}): Promise<void> {
    if (this.closed) throw new Error('InProcessJobQueue is closed');
    const { attempts, backoffMs, delayMs } = resolveAddOptions(options, {
      attempts: this.defaultAttempts,
      backoffMs: this.defaultBackoffMs,
    });

    this.prune();
    const id = options.jobId ?? randomUUID();
    if (this.jobs.has(id)) return;

    const job: Job = { id, type, data, attempts, backoffMs, attemptsMade: 0 };
    this.jobs.set(id, job);
    if (delayMs > 0) this.delay(job, delayMs);
    else this.enqueue(job);
  }

  async process(handlers: JobHandlers, options: { concurrency?: number } = {}): Promise<void> {
    if (this.closed) throw new Error('InProcessJobQueue is closed');
    if (this.handlers) throw new Error('InProcessJobQueue.process() was already called');
    this.concurrency = positiveInteger('concurrency', options.concurrency ?? 1);
    this.handlers = handlers;
    this.pump();
  }

  drain(timeoutMs = DEFAULT_DRAIN_TIMEOUT_MS): Promise<void> {
    if (this.closed || this.isIdle()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: DrainWaiter = {
        resolve: () => {
          clearTimeout(waiter.timer);
          this.drainWaiters.delete(waiter);
          resolve();
        },
        timer: setTimeout(() => {
          this.drainWaiters.delete(waiter);
          reject(
            new Error(
              `drain timed out after ${timeoutMs} ms: ${this.waiting.length} waiting, ` +
                `${this.timers.size} delayed, ${this.active} running`,
            ),
          );
        }, timeoutMs),
      };
      this.drainWaiters.add(waiter);
    });
  }

  async failed(): Promise<Array<{ jobId: string; type: JobType; error: string; attempts: number }>> {
    this.prune();
    return [...this.failedJobs.values()].map((job) => ({
      jobId: job.id,
      type: job.type,
      error: job.error ?? '',
      attempts: job.attemptsMade,
    }));
  }

  /** Drops waiting and delayed jobs, lets running handlers finish (their outcome is then ignored). */
  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      for (const timer of this.timers.values()) clearTimeout(timer);
      this.timers.clear();
      this.waiting.length = 0;
    }
    await Promise.allSettled([...this.running]);
    this.jobs.clear();
    this.completed.clear();
    this.failedJobs.clear();
    for (const waiter of [...this.drainWaiters]) waiter.resolve();
  }

  private isIdle(): boolean {
    return this.waiting.length === 0 && this.timers.size === 0 && this.active === 0;
  }

  private enqueue(job: Job): void {
    this.waiting.push(job);
    this.pump();
  }

  private delay(job: Job, ms: number): void {
    this.timers.set(
      job.id,
      setTimeout(() => {
        this.timers.delete(job.id);
        this.enqueue(job);
      }, ms),
    );
  }

  private pump(): void {
    while (!this.closed && this.handlers && this.active < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift();
      if (job) this.start(job, this.handlers);
    }
    this.notifyIfIdle();
  }

  private start(job: Job, handlers: JobHandlers): void {
    job.attemptsMade += 1;
    this.active += 1;
    const ctx: JobContext = { jobId: job.id, attempt: job.attemptsMade, attempts: job.attempts };
    const run = (async () => {
      try {
        // a job type can only be missing at run time through a cast; it would never succeed, so no retry
        if (!Object.hasOwn(handlers, job.type)) {
          this.finishFailed(job, `no handler for job type ${job.type}`);
          return;
        }
        await runHandler(handlers, job.type, job.data, ctx);
        if (!this.closed) this.finishCompleted(job);
      } catch (error) {
        if (!this.closed) this.retryOrFail(job, error);
      }
    })();
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      this.active -= 1;
      this.pump();
    });
  }

  private retryOrFail(job: Job, error: unknown): void {
    const message = errorMessage(error);
    if (job.attemptsMade < job.attempts) {
      log.warn(
        { jobId: job.id, type: job.type, attempt: job.attemptsMade, err: message },
        'job attempt failed, retrying',
      );
      this.delay(job, job.backoffMs * 2 ** (job.attemptsMade - 1));
      return;
    }
    this.finishFailed(job, message);
  }

  private finishCompleted(job: Job): void {
    job.finishedAt = Date.now();
    this.completed.set(job.id, job);
    this.prune();
  }

  private finishFailed(job: Job, message: string): void {
    log.error({ jobId: job.id, type: job.type, attempts: job.attemptsMade, err: message }, 'job failed');
    job.error = message;
    job.finishedAt = Date.now();
    this.failedJobs.set(job.id, job);
    this.prune();
  }

  /** Forgets finished jobs past their retention, which frees their ids for new adds. */
  private prune(): void {
    const now = Date.now();
    for (const [finished, keep] of [
      [this.completed, this.keepCompleted],
      [this.failedJobs, this.keepFailed],
    ] as const) {
      for (const job of finished.values()) {
        const expired = now - (job.finishedAt ?? now) > keep.ageMs;
        if (!expired && finished.size <= keep.count) break;
        finished.delete(job.id);
        this.jobs.delete(job.id);
      }
    }
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    for (const waiter of [...this.drainWaiters]) waiter.resolve();
  }
}
