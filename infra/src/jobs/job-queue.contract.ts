import { setTimeout as sleep } from 'node:timers/promises';
import type { JobMap, JobType } from '@evo/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobContext, JobHandler, JobHandlers, JobQueue } from './port';

type VideoJob = JobMap['video.process'];

interface Call {
  data: VideoJob;
  ctx: JobContext;
  at: number;
}

/** small, so retries do not slow the suite */
const BACKOFF_MS = 50;
/**
 * For the test that measures the backoff: BullMQ can start a 50 ms retry 100 ms late, which would let
 * a constant backoff pass for an exponential one; at 150 ms the doubling (150, then 300) stands out.
 */
const MEASURED_BACKOFF_MS = 150;
/** Date.now() has 1 ms resolution and timers may fire on the edge of it */
const CLOCK_SLACK_MS = 2;

/**
 * The tests only add 'video.process' jobs (JobMap is owned by the domain and grows); the other job
 * types get no handler here, which the adapters report as a failed job if one ever shows up.
 */
function handlersFor(video: JobHandler<'video.process'>): JobHandlers {
  const handlers: Pick<JobHandlers, 'video.process'> = { 'video.process': video };
  return handlers as JobHandlers;
}

function video(videoId: number): VideoJob {
  return { videoId, filePath: `/uploads/videos/${videoId}.mp4` };
}

/** Records every call and the most handlers seen running at once; `fail` says whether a try throws. */
function recorder(options: { fail?: (data: VideoJob, ctx: JobContext) => boolean; workMs?: number } = {}) {
  const calls: Call[] = [];
  let running = 0;
  let maxRunning = 0;
  const handler: JobHandler<'video.process'> = async (data, ctx) => {
    calls.push({ data, ctx, at: Date.now() });
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    try {
      if (options.workMs) await sleep(options.workMs);
      if (options.fail?.(data, ctx)) throw new Error(`échec de la tentative ${ctx.attempt}`);
    } finally {
      running -= 1;
    }
  };
  return { calls, handler, maxRunning: () => maxRunning };
}

/**
 * Every JobQueue adapter must pass this suite. `make` gives a fresh, empty queue; `cleanup` closes it
 * and removes whatever it left behind.
 */
export function jobQueueContract(
  name: string,
  make: () => Promise<{ queue: JobQueue; cleanup(): Promise<void> }>,
): void {
  describe(`JobQueue contract: ${name}`, () => {
    let queue: JobQueue;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ queue, cleanup } = await make());
    });

    afterEach(async () => {
      await cleanup();
    });

    it('processes an added job once with its data and a first-attempt context', async () => {
      const rec = recorder();
      await queue.process(handlersFor(rec.handler));
      await queue.add('video.process', video(1), { jobId: 'video-1' });
      await queue.drain(10_000);

      expect(rec.calls).toHaveLength(1);
      expect(rec.calls[0].data).toEqual(video(1));
      expect(rec.calls[0].ctx).toEqual({ jobId: 'video-1', attempt: 1, attempts: 3 });
      expect(await queue.failed()).toEqual([]);
    });

    it('de-duplicates by jobId while the job exists, whatever characters the id has', async () => {
      const rec = recorder();
      // ids such adapters may have trouble with: an integer-looking one and one with ':' and '%'
      for (const jobId of ['42', 'video.process:42', 'a%3Ab:c']) {
        await queue.add('video.process', video(1), { jobId });
        await queue.add('video.process', video(2), { jobId });
      }
      await queue.process(handlersFor(rec.handler));
      await queue.drain(10_000);
      // a completed job is still kept, so its id still de-duplicates
      await queue.add('video.process', video(3), { jobId: '42' });
      await queue.drain(10_000);

      expect(rec.calls.map((c) => c.ctx.jobId).sort()).toEqual(['42', 'a%3Ab:c', 'video.process:42']);
      expect(rec.calls.map((c) => c.data)).toEqual([video(1), video(1), video(1)]);
    });

    it('jobs without a jobId are all processed', async () => {
      const rec = recorder();
      await queue.process(handlersFor(rec.handler));
      await Promise.all([1, 2, 3].map((id) => queue.add('video.process', video(id))));
      await queue.drain(10_000);

      expect(rec.calls.map((c) => c.data.videoId).sort()).toEqual([1, 2, 3]);
      expect(new Set(rec.calls.map((c) => c.ctx.jobId)).size).toBe(3);
    });

    it('retries with exponential backoff: fails twice, then succeeds on the third try', async () => {
      const rec = recorder({ fail: (_data, ctx) => ctx.attempt < 3 });
      await queue.process(handlersFor(rec.handler));
      await queue.add('video.process', video(7), { jobId: 'flaky', attempts: 3, backoffMs: MEASURED_BACKOFF_MS });
      await queue.drain(10_000);

      expect(rec.calls.map((c) => c.ctx)).toEqual([
        { jobId: 'flaky', attempt: 1, attempts: 3 },
        { jobId: 'flaky', attempt: 2, attempts: 3 },
        { jobId: 'flaky', attempt: 3, attempts: 3 },
      ]);
      expect(rec.calls.every((c) => c.data.videoId === 7)).toBe(true);
      const [first, second, third] = rec.calls.map((c) => c.at);
      // backoffMs * 2^(attempt - 1): at least 150 ms, then at least 300 ms
      expect(second - first).toBeGreaterThanOrEqual(MEASURED_BACKOFF_MS - CLOCK_SLACK_MS);
      expect(third - second).toBeGreaterThanOrEqual(2 * MEASURED_BACKOFF_MS - CLOCK_SLACK_MS);
      expect(await queue.failed()).toEqual([]);
    });

    it('a job failing every try ends in failed() after `attempts` tries', async () => {
      const rec = recorder({ fail: () => true });
      await queue.process(handlersFor(rec.handler));
      await queue.add('video.process', video(9), { jobId: 'doomed', attempts: 2, backoffMs: BACKOFF_MS });
      await queue.drain(10_000);

      expect(rec.calls.map((c) => c.ctx.attempt)).toEqual([1, 2]);
      expect(await queue.failed()).toEqual([
        { jobId: 'doomed', type: 'video.process', error: 'échec de la tentative 2', attempts: 2 },
      ]);
      // a failed job still exists, so its id still de-duplicates
      await queue.add('video.process', video(9), { jobId: 'doomed', attempts: 2, backoffMs: BACKOFF_MS });
      await queue.drain(10_000);
      expect(rec.calls).toHaveLength(2);
    });

    it('a job whose type has no handler fails at once, without retries', async () => {
      const rec = recorder();
      await queue.process(handlersFor(rec.handler));
      // only reachable through a cast (or an older producer): the type system forbids it
      await queue.add('not.a.job' as JobType, video(5), { jobId: 'orphan', attempts: 3 });
      await queue.drain(10_000);

      expect(rec.calls).toHaveLength(0);
      const failed = await queue.failed();
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ jobId: 'orphan', type: 'not.a.job', attempts: 1 });
      expect(failed[0].error).toContain('not.a.job');
    });

    it('runs one job at a time by default', async () => {
      const rec = recorder({ workMs: 40 });
      await queue.process(handlersFor(rec.handler));
      await Promise.all([1, 2, 3, 4].map((id) => queue.add('video.process', video(id))));
      await queue.drain(10_000);

      expect(rec.calls).toHaveLength(4);
      expect(rec.maxRunning()).toBe(1);
    });

    it('respects the concurrency option', async () => {
      const rec = recorder({ workMs: 150 });
      // jobs are queued before processing starts, so the worker finds enough of them at once
      await Promise.all([1, 2, 3, 4, 5, 6].map((id) => queue.add('video.process', video(id))));
      await queue.process(handlersFor(rec.handler), { concurrency: 3 });
      await queue.drain(10_000);

      expect(rec.calls).toHaveLength(6);
      expect(rec.maxRunning()).toBe(3);
    });

    it('runs a delayed job after its delay', async () => {
      const rec = recorder();
      await queue.process(handlersFor(rec.handler));
      const addedAt = Date.now();
      await queue.add('video.process', video(11), { jobId: 'later', delayMs: 150 });
      await queue.drain(10_000);

      expect(rec.calls).toHaveLength(1);
      expect(rec.calls[0].at - addedAt).toBeGreaterThanOrEqual(150 - CLOCK_SLACK_MS);
    });

    it('drain resolves only when waiting, delayed and running jobs are all done', async () => {
      const rec = recorder({ workMs: 30, fail: (data, ctx) => data.videoId === 2 && ctx.attempt === 1 });
      await queue.process(handlersFor(rec.handler), { concurrency: 2 });
      await queue.add('video.process', video(1));
      await queue.add('video.process', video(2), { backoffMs: BACKOFF_MS });
      await queue.add('video.process', video(3), { delayMs: 120 });
      await queue.drain(10_000);

      expect(rec.calls.map((c) => c.data.videoId).sort()).toEqual([1, 2, 2, 3]);
    });

    it('drain rejects after its timeout when jobs remain', async () => {
      // nothing processes: the job stays waiting
      await queue.add('video.process', video(1), { jobId: 'stuck' });
      await expect(queue.drain(200)).rejects.toThrow(/drain timed out/);
    });

    it('drain resolves at once on an empty queue', async () => {
      await queue.drain(1000);
      const rec = recorder();
      await queue.process(handlersFor(rec.handler));
      await queue.drain(1000);
      expect(rec.calls).toHaveLength(0);
    });

    it('jobs added after processing started are processed', async () => {
      const rec = recorder();
      await queue.process(handlersFor(rec.handler));
      await queue.add('video.process', video(1));
      await queue.drain(10_000);
      await sleep(50);
      await queue.add('video.process', video(2));
      await queue.drain(10_000);

      expect(rec.calls.map((c) => c.data.videoId)).toEqual([1, 2]);
    });

    it('refuses a second process() call', async () => {
      const rec = recorder();
      await queue.process(handlersFor(rec.handler));
      await expect(queue.process(handlersFor(rec.handler))).rejects.toThrow(/already/);
    });

    it('a handler map missing a job type does not compile (checked by tsc)', () => {
      // @ts-expect-error every JobType needs a handler; this map has none of them
      const missing: JobHandlers = {};
      expect(Object.keys(missing)).toEqual([]);
    });
  });
}
