import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { DomainEvent, JobMap, LogPosition, RecordedEvent } from '@evo/domain';
import {
  LocalFolderStore,
  SqliteEventStore,
  systemContext,
  toNewEvents,
  type AddJobOptions,
  type EventStore,
  type JobQueue,
} from '@evo/infra';
import { startWorkersService } from './service';
import { uploaded } from './videos/testing';
import { VIDEO_JOB_TRIES } from '@evo/domain';

/** The store, counting the events its readAll hands out. */
function counting(store: EventStore): EventStore & { read: number; readAlls: number } {
  const counted = Object.create(store) as EventStore & { read: number; readAlls: number };
  counted.read = 0;
  counted.readAlls = 0;
  counted.readAll = async function* (from?: LogPosition, batchSize?: number): AsyncIterable<RecordedEvent[]> {
    counted.readAlls++;
    for await (const batch of store.readAll(from, batchSize)) {
      counted.read += batch.length;
      yield batch;
    }
  };
  return counted;
}

describe('the workers service at start', () => {
  it('reads the log once for the gift credits, the video jobs to queue again and the orphan files to sweep', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'evo-workers-'));
    const log = new SqliteEventStore(':memory:');
    const files = new LocalFolderStore(dir);
    try {
      const append = (videoId: number, e: DomainEvent[]) =>
        log.append(`video-${videoId}`, toNewEvents(e, `video-${videoId}`, systemContext()), 'any');
      await append(1, [uploaded(1)]);
      await append(5, [uploaded(5), { type: 'VideoDeleted', data: { videoId: 5, ownerId: 'u1', deletedBy: 'u1' } }]);
      await append(6, [uploaded(6), { type: 'VideoDeleted', data: { videoId: 6, ownerId: 'u1', deletedBy: 'admin' } }]);
      await files.ready();
      for (const name of ['1.mp4', '5.mp4', '6.mp4', '7.mp4'])
        await files.put('videos', name, Readable.from([Buffer.from('x')]));
      for (const name of ['5.jpg', '6.jpg', '99.jpg'])
        await files.put('posters', name, Readable.from([Buffer.from('x')]));
      const added: Array<{ data: JobMap['video.process']; options?: AddJobOptions }> = [];
      const jobs = {
        add: async (_type: string, data: JobMap['video.process'], options?: AddJobOptions) =>
          void added.push({ data, options }),
        process: async () => undefined,
        close: async () => undefined,
      } as unknown as JobQueue;
      const events = counting(log);

      const workers = await startWorkersService({
        events,
        jobs,
        files,
        orphanGraceMs: 0,
        keys: { destroy: async () => undefined },
      });
      const swept = await workers.swept;
      await workers.stop();

      // one pass over the five events
      expect(events.readAlls).toBe(1);
      expect(events.read).toBe(5);
      expect(workers.requeued).toBe(1);
      expect(added).toEqual([
        { data: { videoId: 1, filePath: '/uploads/videos/1.mp4' }, options: { jobId: 'video-1', ...VIDEO_JOB_TRIES } },
      ]);
      // the erased video's files and what no video names go; an administrator's deletion keeps them
      expect(swept.sort()).toEqual(['posters/5.jpg', 'posters/99.jpg', 'videos/5.mp4', 'videos/7.mp4']);
      const left = async (folder: 'videos' | 'posters') => {
        const out: string[] = [];
        for await (const f of files.list(folder)) out.push(f.name);
        return out.sort();
      };
      expect(await left('videos')).toEqual(['1.mp4', '6.mp4']);
      expect(await left('posters')).toEqual(['6.jpg']);
    } finally {
      await log.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
