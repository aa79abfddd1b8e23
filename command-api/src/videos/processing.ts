import type { JobQueue } from '@evo/infra';

/** Probe the video and make its poster in the background; the job id makes a re-send harmless. */
export const enqueueVideoProcessing = (jobs: JobQueue, videoId: number | undefined, filePath: string) =>
  videoId === undefined
    ? Promise.resolve()
    : jobs.add('video.process', { videoId, filePath }, { jobId: `video-${videoId}` });
