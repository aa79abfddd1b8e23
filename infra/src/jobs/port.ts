import type { JobMap, JobType } from '@evo/domain';

export interface AddJobOptions {
  /** de-duplication: a second add with the same id while the first exists is ignored */
  jobId?: string;
  /** total tries, default 3 */
  attempts?: number;
  /** first retry delay in ms, doubled at each retry (exponential backoff), default 1000 */
  backoffMs?: number;
  delayMs?: number;
}

export interface JobContext {
  jobId: string;
  /** 1 for the first try */
  attempt: number;
  /** the tries the job has in all: `attempt === attempts` is its last (a handler may then record a failure) */
  attempts: number;
}

export type JobHandler<K extends JobType> = (data: JobMap[K], ctx: JobContext) => Promise<void>;
/** One handler per job type: leaving one out is a compile error. */
export type JobHandlers = { [K in JobType]: JobHandler<K> };

export interface JobQueue {
  add<K extends JobType>(type: K, data: JobMap[K], options?: AddJobOptions): Promise<void>;
  /** start processing with these handlers */
  process(handlers: JobHandlers, options?: { concurrency?: number }): Promise<void>;
  /** resolves when no job is waiting, delayed or running (for tests and graceful shutdown) */
  drain(timeoutMs?: number): Promise<void>;
  /** jobs that failed every attempt */
  failed(): Promise<Array<{ jobId: string; type: JobType; error: string; attempts: number }>>;
  close(): Promise<void>;
}
