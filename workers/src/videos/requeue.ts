import type { EventStore, JobQueue } from '@evo/infra';

/**
 * Uploads recorded whose processing never recorded an outcome get their job again: an API replica
 * that died between appending `VideoUploaded` and queueing the job (or a Redis that lost the
 * queue) would otherwise leave the video "en traitement" for ever. The workers service calls it at
 * start, once per topology; the embedded server does the same from its read models. The job id is
 * the one the API gives (`video-<id>`), so a job still queued is not added twice, and the handler
 * ignores a video that already has its outcome. Answers the number of jobs queued.
 */
export async function requeueUnprocessedVideos(events: EventStore, jobs: JobQueue): Promise<number> {
  const pending = new Map<number, string>();
  for await (const batch of events.readAll(undefined, 2000)) {
    for (const e of batch) {
      const videoId = (e.data as { videoId?: number }).videoId;
      if (videoId === undefined) continue;
      if (e.type === 'VideoUploaded') pending.set(videoId, (e.data as { filePath: string }).filePath);
      else if (e.type === 'VideoProcessed' || e.type === 'VideoRejected' || e.type === 'VideoDeleted') {
        pending.delete(videoId);
      }
    }
  }
  for (const [videoId, filePath] of pending) {
    await jobs.add('video.process', { videoId, filePath }, { jobId: `video-${videoId}` });
  }
  return pending.size;
}
