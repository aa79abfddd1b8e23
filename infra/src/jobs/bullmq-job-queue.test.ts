import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { BullMqJobQueue } from './bullmq-job-queue';
import { jobQueueContract } from './job-queue.contract';
import type { JobHandlers } from './port';
import { ServiceUnavailableError } from '../services';
import { proxyTo } from '../testing/tcp-proxy';
import { skippedSuite } from '../testing/skipped-suite';

const redisUrl = process.env.REDIS_URL;
const QUEUE_NAME = 'jobs';
/** unique per run, so parallel runs and leftovers of crashed runs never meet */
const runPrefix = `evo-test-${randomUUID()}`;

/** Removes every key of one test's queue: obliterate, then whatever BullMQ keeps outside the queue. */
async function removeQueue(url: string, prefix: string): Promise<void> {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const admin = new Queue(QUEUE_NAME, { connection, prefix });
  try {
    await admin.obliterate({ force: true });
    await admin.close();
    const leftovers = await connection.keys(`${prefix}:*`);
    if (leftovers.length > 0) await connection.del(...leftovers);
  } finally {
    await connection.quit();
  }
}

if (!redisUrl) {
  skippedSuite(
    'bullmq-job-queue.test.ts: REDIS_URL is not set, the BullMQ JobQueue tests are skipped',
    'BullMqJobQueue (needs REDIS_URL)',
    'runs the JobQueue contract on Redis',
  );
} else {
  const url = redisUrl;
  let testCount = 0;

  jobQueueContract('BullMqJobQueue', async () => {
    testCount += 1;
    const prefix = `${runPrefix}-${testCount}`;
    const queue = new BullMqJobQueue({ redisUrl: url, prefix, queueName: QUEUE_NAME });
    return {
      queue,
      cleanup: async () => {
        await queue.close();
        await removeQueue(url, prefix);
      },
    };
  });

  describe('BullMqJobQueue', () => {
    afterAll(async () => {
      const connection = new Redis(url);
      try {
        expect(await connection.keys(`${runPrefix}*`)).toEqual([]);
      } finally {
        await connection.quit();
      }
    });

    it('Redis away: adding a job fails promptly with ServiceUnavailableError (a French 503 at the HTTP layer), then works again', async () => {
      const { proxy, url: viaProxy } = await proxyTo(url, 6379);
      const prefix = `${runPrefix}-away`;
      const queue = new BullMqJobQueue({ redisUrl: viaProxy, prefix, queueName: QUEUE_NAME });
      try {
        await queue.add('video.process', { videoId: 1, filePath: '/uploads/videos/a.mp4' }, { jobId: 'video-1' });
        await proxy.close();
        const began = Date.now();
        const err = await queue
          .add('video.process', { videoId: 2, filePath: '/uploads/videos/b.mp4' }, { jobId: 'video-2' })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ServiceUnavailableError);
        expect(Date.now() - began).toBeLessThan(10_000);
        await proxy.open();
        await queue.add('video.process', { videoId: 3, filePath: '/uploads/videos/c.mp4' }, { jobId: 'video-3' });
      } finally {
        await proxy.close();
        await queue.close();
        await removeQueue(url, prefix);
      }
    });

    it('stores jobs under the prefix, named by job type, and keeps waiting jobs across restarts', async () => {
      const prefix = `${runPrefix}-restart`;
      const producer = new BullMqJobQueue({ redisUrl: url, prefix, queueName: QUEUE_NAME });
      try {
        await producer.add('video.process', { videoId: 5, filePath: '/v/5.mp4' }, { jobId: 'video.process:5' });
        await producer.close();

        const connection = new Redis(url);
        const inspector = new Queue(QUEUE_NAME, { connection, prefix });
        const waiting = await inspector.getWaiting();
        expect(waiting.map((job) => job.name)).toEqual(['video.process']);
        expect(waiting[0].opts.attempts).toBe(3);
        expect(waiting[0].opts.backoff).toEqual({ type: 'exponential', delay: 1000 });
        await inspector.close();
        await connection.quit();

        // a later worker process picks the job up
        const consumer = new BullMqJobQueue({ redisUrl: url, prefix, queueName: QUEUE_NAME });
        const seen: string[] = [];
        await consumer.process({
          'video.process': async (_data, ctx) => {
            seen.push(ctx.jobId);
          },
          'account.erase': async () => {},
          'data-export.build': async () => {},
        } as JobHandlers);
        await consumer.drain(10_000);
        await consumer.close();
        expect(seen).toEqual(['video.process:5']);
      } finally {
        await producer.close();
        await removeQueue(url, prefix);
      }
    });
  });
}
