import { describe, expect, it } from 'vitest';
import type { DomainEvent, JobMap } from '@evo/domain';
import { SqliteEventStore, systemContext, toNewEvents, type AddJobOptions, type JobQueue } from '@evo/infra';
import { requeueUnprocessedVideos } from './requeue';
import { uploaded } from './testing';
import { VIDEO_JOB_TRIES } from '@evo/domain';

/** Records what is added; runs nothing. */
function recordingQueue() {
  const added: Array<{ data: JobMap['video.process']; options?: AddJobOptions }> = [];
  const queue = {
    add: async (_type: string, data: JobMap['video.process'], options?: AddJobOptions) => {
      added.push({ data, options });
    },
  } as unknown as JobQueue;
  return { queue, added };
}

describe('requeueUnprocessedVideos (workers service start)', () => {
  it('queues again, under the API job id, every upload without an outcome; processed, rejected, failed and deleted ones are left alone', async () => {
    const events = new SqliteEventStore(':memory:');
    const append = (videoId: number, e: DomainEvent[]) =>
      events.append(`video-${videoId}`, toNewEvents(e, `video-${videoId}`, systemContext()), 'any');
    await append(1, [uploaded(1)]);
    await append(2, [
      uploaded(2),
      {
        type: 'VideoProcessed',
        data: { videoId: 2, durationSeconds: 1, sizeBytes: 10, codec: 'h264', width: 2, height: 2, posterPath: null },
      },
    ]);
    await append(3, [uploaded(3), { type: 'VideoRejected', data: { videoId: 3, reason: 'Illisible.' } }]);
    await append(4, [uploaded(4)]);
    await append(5, [uploaded(5), { type: 'VideoDeleted', data: { videoId: 5, ownerId: 'u1', deletedBy: 'u1' } }]);
    // failed at every try: it waits for its author; tried again at their request: queued again
    const failed = (videoId: number): DomainEvent => ({
      type: 'VideoProcessingFailed',
      data: { videoId, reason: 'Échec.', attempts: 6 },
    });
    await append(6, [uploaded(6), failed(6)]);
    await append(7, [
      uploaded(7),
      failed(7),
      { type: 'VideoProcessingRetried', data: { videoId: 7, requestedBy: 'u1' } },
    ]);
    const { queue, added } = recordingQueue();

    expect(await requeueUnprocessedVideos(events, queue)).toBe(3);
    expect(added).toEqual(
      [1, 4, 7].map((id) => ({
        data: { videoId: id, filePath: `/uploads/videos/${id}.mp4` },
        options: { jobId: `video-${id}`, ...VIDEO_JOB_TRIES },
      })),
    );
    await events.close();
  });
});
