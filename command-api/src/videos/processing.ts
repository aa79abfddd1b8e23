import { ADMIN_ROLE, videoDecider, videoStream } from '@evo/domain';
import { handleCommand, type CommandContext, type EventStore, type JobQueue } from '@evo/infra';
import { videoJobOptions } from '@evo/domain';
import { loadMember } from '../identity/members';

/**
 * Probe the video and make its poster in the background; the job id makes a re-send harmless (a
 * retry after a failure gives its own, `jobId`).
 */
export const enqueueVideoProcessing = (
  jobs: JobQueue,
  videoId: number | undefined,
  filePath: string,
  jobId?: string,
) =>
  videoId === undefined
    ? Promise.resolve()
    : jobs.add('video.process', { videoId, filePath }, videoJobOptions(videoId, jobId));

/**
 * A video whose processing failed at every try (`VideoProcessingFailed`) is processed again, at its
 * author's (or an administrator's) request: back "en traitement", with a job of its own (the
 * failed one may still be kept under `video-<id>`).
 */
export async function retryVideoProcessing(
  events: EventStore,
  jobs: JobQueue,
  requesterId: string,
  videoId: number,
  ctx: CommandContext,
) {
  const requester = await loadMember(events, requesterId);
  const result = await handleCommand(
    events,
    videoStream(videoId),
    videoDecider,
    { type: 'RetryProcessing', videoId, requesterId, requesterIsAdmin: requester?.role === ADMIN_ROLE },
    ctx,
  );
  if (result.state.status !== 'none' && result.state.filePath)
    await enqueueVideoProcessing(jobs, videoId, result.state.filePath, `video-${videoId}-retry-${result.position}`);
  return result;
}
