import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { InProcessJobQueue } from './in-process-job-queue';
import { jobQueueContract } from './job-queue.contract';
import type { JobHandlers } from './port';

jobQueueContract('InProcessJobQueue', async () => {
  const queue = new InProcessJobQueue();
  return { queue, cleanup: () => queue.close() };
});

/** Video jobs' handlers that record the ids of the videos they were given, in order. */
function recordingHandlers() {
  const seen: number[] = [];
  const handlers = {
    'video.process': async (data: { videoId: number }) => {
      seen.push(data.videoId);
    },
  } as Partial<JobHandlers> as JobHandlers;
  return { seen, handlers };
}

function timeoutCount(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('InProcessJobQueue', () => {
  it('close drops delayed and waiting jobs and leaves no timer behind', async () => {
    const queue = new InProcessJobQueue();
    const { seen, handlers } = recordingHandlers();
    const timersBefore = timeoutCount();
    await queue.add('video.process', { videoId: 1, filePath: '/a.mp4' }, { delayMs: 60_000 });
    await queue.add('video.process', { videoId: 2, filePath: '/b.mp4' }, { delayMs: 100 });
    expect(timeoutCount()).toBe(timersBefore + 2);

    await queue.close();
    expect(timeoutCount()).toBe(timersBefore);
    await expect(queue.process(handlers)).rejects.toThrow(/closed/);
    await sleep(150);
    expect(seen).toEqual([]);
    await expect(queue.add('video.process', { videoId: 3, filePath: '/c.mp4' })).rejects.toThrow(/closed/);
    await queue.drain(100);
  });

  it('close waits for running handlers and ignores their outcome', async () => {
    const queue = new InProcessJobQueue();
    let finished = false;
    const handlers = {
      'video.process': async () => {
        await sleep(80);
        finished = true;
        throw new Error('arrêt');
      },
    } as Partial<JobHandlers> as JobHandlers;
    const timersBefore = timeoutCount();
    await queue.process(handlers);
    await queue.add('video.process', { videoId: 1, filePath: '/a.mp4' }, { backoffMs: 10 });
    await sleep(10);
    await queue.close();
    expect(finished).toBe(true);
    // the failure after close schedules no retry
    expect(timeoutCount()).toBe(timersBefore);
    expect(await queue.failed()).toEqual([]);
  });

  it('forgets a finished job after its retention, which frees its id', async () => {
    const queue = new InProcessJobQueue({ keepCompleted: { ageMs: 50, count: 1000 } });
    const { seen, handlers } = recordingHandlers();
    await queue.process(handlers);
    await queue.add('video.process', { videoId: 1, filePath: '/a.mp4' }, { jobId: 'x' });
    await queue.drain();
    await queue.add('video.process', { videoId: 2, filePath: '/b.mp4' }, { jobId: 'x' });
    await queue.drain();
    await sleep(80);
    await queue.add('video.process', { videoId: 3, filePath: '/c.mp4' }, { jobId: 'x' });
    await queue.drain();
    expect(seen).toEqual([1, 3]);
    await queue.close();
  });

  it('keeps at most `count` finished jobs', async () => {
    const queue = new InProcessJobQueue({ keepCompleted: { ageMs: 60_000, count: 2 } });
    const { seen, handlers } = recordingHandlers();
    await queue.process(handlers);
    for (const id of [1, 2, 3])
      await queue.add('video.process', { videoId: id, filePath: '/v.mp4' }, { jobId: `j${id}` });
    await queue.drain();
    // j1 was pushed out by j2 and j3; j3 is still kept
    await queue.add('video.process', { videoId: 10, filePath: '/v.mp4' }, { jobId: 'j1' });
    await queue.add('video.process', { videoId: 30, filePath: '/v.mp4' }, { jobId: 'j3' });
    await queue.drain();
    expect(seen).toEqual([1, 2, 3, 10]);
    await queue.close();
  });

  it('rejects invalid options', async () => {
    const queue = new InProcessJobQueue();
    await expect(queue.add('video.process', { videoId: 1, filePath: '/a.mp4' }, { attempts: 0 })).rejects.toThrow(
      RangeError,
    );
    await expect(queue.add('video.process', { videoId: 1, filePath: '/a.mp4' }, { backoffMs: -1 })).rejects.toThrow(
      RangeError,
    );
    await expect(queue.process({} as JobHandlers, { concurrency: 0 })).rejects.toThrow(RangeError);
    await queue.close();
  });
});
