import { setTimeout as sleep } from 'node:timers/promises';
import type { JobMap, JobType } from '@evo/domain';
import type { Job, KeepJobs, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq, ioredis } from '../distributed-clients';
import { ServiceUnavailableError } from '../services';
import { childLogger } from '../logger';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_JOB_ATTEMPTS,
  DEFAULT_JOB_BACKOFF_MS,
  DEFAULT_KEEP_COMPLETED,
  DEFAULT_KEEP_FAILED,
  positiveInteger,
  resolveAddOptions,
  runHandler,
  type JobRetention,
} from './in-process-job-queue';
import type { AddJobOptions, JobHandlers, JobQueue } from './port';

export interface BullMqJobQueueOptions {
  redisUrl: string;
  /** BullMQ key prefix: every key of the queue starts with it, default 'evo' */
  prefix?: string;
  /** default 'jobs': with the default prefix the keys are `evo:jobs:*` */
  queueName?: string;
  defaultAttempts?: number;
  defaultBackoffMs?: number;
  /** how long a finished job stays in Redis, which is also how long its jobId de-duplicates */
  keepCompleted?: JobRetention;
  keepFailed?: JobRetention;
  /** how often drain() looks at the job counts, default 50 ms */
  drainPollMs?: number;
  /**
   * how long a job whose worker died (kill -9, lost machine) waits before a worker runs it again:
   * BullMQ's lock duration and stalled-job check interval, default 30 s
   */
  stalledAfterMs?: number;
}

type JobData = JobMap[JobType];

const log = childLogger('jobs');

/*
 * BullMQ refuses custom ids that look like integers (they could clash with its own counter) or that
 * contain ':' (its key separator), while the port accepts any string ('video.process:42'). Custom ids
 * are therefore stored with a prefix and ':' and '%' percent-encoded, and decoded on the way out.
 */
const CUSTOM_ID_PREFIX = 'id-';

function toBullJobId(jobId: string): string {
  return CUSTOM_ID_PREFIX + jobId.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'));
}

function fromBullJobId(bullId: string | undefined): string {
  if (bullId === undefined) return '';
  if (!bullId.startsWith(CUSTOM_ID_PREFIX)) return bullId;
  return bullId.slice(CUSTOM_ID_PREFIX.length).replace(/%25|%3A/g, (c) => (c === '%25' ? '%' : ':'));
}

function keepJobs(retention: JobRetention): KeepJobs {
  return { age: Math.ceil(retention.ageMs / 1000), count: retention.count };
}

async function closeConnection(connection: Redis | undefined): Promise<void> {
  if (!connection || connection.status === 'end') return;
  try {
    await connection.quit();
  } catch {
    // QUIT cannot be sent on a connection that never came up; dropping it is all that is left to do
    connection.disconnect();
  }
}

/**
 * The distributed JobQueue: one BullMQ queue in Redis, the job name being the job type. Any process may
 * add; the processes that call process() (the workers service) run the jobs. Job data is stored as JSON,
 * so payloads must be plain JSON values.
 */
export class BullMqJobQueue implements JobQueue {
  private readonly redisUrl: string;
  private readonly prefix: string;
  private readonly queueName: string;
  private readonly defaultAttempts: number;
  private readonly defaultBackoffMs: number;
  private readonly keepCompleted: KeepJobs;
  private readonly keepFailed: KeepJobs;
  private readonly drainPollMs: number;
  private readonly stalledAfterMs: number;
  private readonly queueConnection: Redis;
  private readonly queue: Queue<JobData, void, JobType>;
  private workerConnection: Redis | undefined;
  private worker: Worker<JobData, void, string> | undefined;
  private closed = false;

  constructor(options: BullMqJobQueueOptions) {
    this.redisUrl = options.redisUrl;
    this.prefix = options.prefix ?? 'evo';
    this.queueName = options.queueName ?? 'jobs';
    this.defaultAttempts = positiveInteger('defaultAttempts', options.defaultAttempts ?? DEFAULT_JOB_ATTEMPTS);
    this.defaultBackoffMs = options.defaultBackoffMs ?? DEFAULT_JOB_BACKOFF_MS;
    this.keepCompleted = keepJobs(options.keepCompleted ?? DEFAULT_KEEP_COMPLETED);
    this.keepFailed = keepJobs(options.keepFailed ?? DEFAULT_KEEP_FAILED);
    this.drainPollMs = options.drainPollMs ?? 50;
    this.stalledAfterMs = positiveInteger('stalledAfterMs', options.stalledAfterMs ?? 30_000);

    // while Redis is away an add fails after a few reconnection attempts (a French 503 at the HTTP
    // layer) rather than waiting for ioredis's default twenty; it keeps reconnecting in the background
    this.queueConnection = new (ioredis().Redis)(this.redisUrl, { maxRetriesPerRequest: 3 });
    this.queueConnection.on('error', (err) => log.error({ err }, 'queue redis connection error'));
    this.queue = new (bullmq().Queue)<JobData, void, JobType>(this.queueName, {
      connection: this.queueConnection,
      prefix: this.prefix,
    });
    this.queue.on('error', (err) => log.error({ err }, 'queue error'));
  }

  async add<K extends JobType>(type: K, data: JobMap[K], options: AddJobOptions = {}): Promise<void> {
    if (this.closed) throw new Error('BullMqJobQueue is closed');
    const { attempts, backoffMs, delayMs } = resolveAddOptions(options, {
      attempts: this.defaultAttempts,
      backoffMs: this.defaultBackoffMs,
    });
    // with an existing jobId BullMQ returns the existing job and adds nothing: that is the de-duplication
    try {
      await this.queue.add(type, data, {
        jobId: options.jobId === undefined ? undefined : toBullJobId(options.jobId),
        attempts,
        backoff: { type: 'exponential', delay: backoffMs },
        delay: delayMs > 0 ? delayMs : undefined,
        removeOnComplete: this.keepCompleted,
        removeOnFail: this.keepFailed,
      });
    } catch (err) {
      // Redis away (the job is not queued: a video's job is queued again by the workers service at start)
      throw new ServiceUnavailableError('Redis (jobs)', err);
    }
  }

  async process(handlers: JobHandlers, options: { concurrency?: number } = {}): Promise<void> {
    if (this.closed) throw new Error('BullMqJobQueue is closed');
    if (this.worker) throw new Error('BullMqJobQueue.process() was already called');
    const concurrency = positiveInteger('concurrency', options.concurrency ?? 1);

    // a worker blocks on Redis; BullMQ requires its connection to retry forever instead of failing commands
    this.workerConnection = new (ioredis().Redis)(this.redisUrl, { maxRetriesPerRequest: null });
    this.workerConnection.on('error', (err) => log.error({ err }, 'worker redis connection error'));
    this.worker = new (bullmq().Worker)<JobData, void, string>(this.queueName, (job) => this.handle(handlers, job), {
      connection: this.workerConnection,
      prefix: this.prefix,
      concurrency,
      lockDuration: this.stalledAfterMs,
      stalledInterval: this.stalledAfterMs,
    });
    this.worker.on('error', (err) => log.error({ err }, 'worker error'));
    this.worker.on('failed', (job, err) => {
      log.warn(
        { jobId: fromBullJobId(job?.id), type: job?.name, attempt: job?.attemptsMade, err: err.message },
        'job attempt failed',
      );
    });
    await this.worker.waitUntilReady();
  }

  async drain(timeoutMs = DEFAULT_DRAIN_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // BullMQ moves a job between these states in single Lua scripts, so a zero total is not a gap
      // between two states (a retry goes from active to delayed atomically)
      const counts = await this.queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'prioritized',
        'waiting-children',
        'paused',
      );
      const pending = Object.values(counts).reduce((sum, n) => sum + n, 0);
      if (pending === 0) return;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        const detail = Object.entries(counts)
          .filter(([, n]) => n > 0)
          .map(([state, n]) => `${n} ${state}`)
          .join(', ');
        throw new Error(`drain timed out after ${timeoutMs} ms: ${detail}`);
      }
      await sleep(Math.min(this.drainPollMs, remaining));
    }
  }

  async failed(): Promise<Array<{ jobId: string; type: JobType; error: string; attempts: number }>> {
    const jobs = await this.queue.getFailed(0, -1);
    return jobs.map((job) => ({
      jobId: fromBullJobId(job.id),
      // a job added under a name that is not a JobType (by another version of the code) is listed as is
      type: job.name,
      error: job.failedReason ?? '',
      attempts: job.attemptsMade,
    }));
  }

  /** Lets running jobs finish; waiting and delayed jobs stay in Redis for the next worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker?.close();
    await this.queue.close();
    await Promise.all([closeConnection(this.workerConnection), closeConnection(this.queueConnection)]);
  }

  private async handle(handlers: JobHandlers, job: Job<JobData, void, string>): Promise<void> {
    const type = job.name;
    // retrying cannot make a missing handler appear, so the job fails at once
    if (!Object.hasOwn(handlers, type)) throw new (bullmq().UnrecoverableError)(`no handler for job type ${type}`);
    const jobId = fromBullJobId(job.id);
    // attemptsMade counts the tries that already failed
    const attempt = job.attemptsMade + 1;
    // a job's start and end in the worker's log: after a crash, which job it was running
    log.info({ jobId, type, attempt }, 'job started');
    await runHandler(handlers, type as JobType, job.data, { jobId, attempt, attempts: job.opts.attempts ?? 1 });
    log.info({ jobId, type, attempt }, 'job done');
  }
}
