import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedAppEvent } from '@evo/domain';
import { SqliteReadStore } from '@evo/infra';
import { explain } from '@evo/infra/testing/read-store-plans';
import { PROCESSING, VIDEOS, videosProjector } from './videos-projector';
import { videosAwaitingProcessing } from './queries';

const stores: SqliteReadStore[] = [];
afterEach(async () => {
  while (stores.length) await stores.pop()!.close();
});

async function videosReadModel(events: Array<{ type: string; data: Record<string, unknown> }>) {
  const read = SqliteReadStore.temporary();
  stores.push(read);
  for (const [name, specs] of Object.entries(videosProjector.indexes ?? {}))
    for (const spec of specs) await read.collection(name).createIndex(spec);
  const ctx = { live: true, push: () => {}, rooms: () => {} };
  let position = 0n;
  for (const { type, data } of events) {
    position += 1n;
    const event = {
      id: `e${position}`,
      type,
      data,
      metadata: { correlationId: 'c', at: new Date(Date.UTC(2026, 0, 1) + Number(position) * 1000).toISOString() },
      streamId: `video-${String(data.videoId)}`,
      revision: 0,
      position,
    } as unknown as RecordedAppEvent;
    await videosProjector.project(event, read, ctx);
  }
  return read;
}

const uploaded = (videoId: number) => ({
  type: 'VideoUploaded',
  data: {
    videoId,
    ownerId: 'u1',
    title: `v${videoId}`,
    description: '',
    filePath: `/uploads/videos/${videoId}.mp4`,
    mimeType: 'video/mp4',
    sizeBytes: 1,
  },
});

describe('the reads of a start, on the videos read model', () => {
  it('finds the uploads still waiting for their processing through an index', async () => {
    const read = await videosReadModel([
      uploaded(1),
      uploaded(2),
      uploaded(3),
      uploaded(4),
      {
        type: 'VideoProcessed',
        data: { videoId: 1, durationSeconds: 3, sizeBytes: 1, codec: 'h264', width: 2, height: 2, posterPath: null },
      },
      { type: 'VideoRejected', data: { videoId: 2, reason: 'Fichier illisible' } },
      { type: 'VideoProcessingFailed', data: { videoId: 3, reason: 'Disque plein' } },
      { type: 'VideoProcessingFailed', data: { videoId: 4, reason: 'Disque plein' } },
      { type: 'VideoProcessingRetried', data: { videoId: 4 } },
    ]);
    expect((await videosAwaitingProcessing(read)).map((v) => v.id)).toEqual([4]);
    expect(explain(read, VIDEOS, { processing: PROCESSING.pending }).plan).toBe('IXSCAN');
  });

  // the embedded sweep of orphan files looks a page of stored names up at once: a start whose
  // files are all named reads only their videos, never the whole collection
  it('looks stored files up by their path and posters by their video, through indexes', async () => {
    const read = await videosReadModel([uploaded(1), uploaded(2)]);
    const paths = ['/uploads/videos/1.mp4', '/uploads/videos/9.mp4'];
    expect((await read.collection(VIDEOS).find({ file_path: { $in: paths } })).map((v) => v._id)).toEqual([1]);
    expect(explain(read, VIDEOS, { file_path: { $in: paths } }).plan).toBe('IXSCAN');
    expect(explain(read, VIDEOS, { _id: { $in: [1, 9] } }).plan).toBe('IXSCAN');
  });
});
