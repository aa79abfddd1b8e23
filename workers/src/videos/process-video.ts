import path from 'node:path';
import { access, rm } from 'node:fs/promises';
import { VIDEO_MESSAGES, videoDecider, videoStream, type JobMap } from '@evo/domain';
import { handleCommand, loadState, type EventStore, type JobContext } from '@evo/infra';
import { makePoster, probeVideo } from './probe';

export interface VideoProcessingDeps {
  events: EventStore;
  /** DATA_DIR/uploads */
  uploadsRoot: string;
}

/**
 * The 'video.process' job: probe the uploaded file, make its poster and record the outcome
 * on the video's stream. A rejected file is removed once `VideoRejected` is recorded (never
 * served, never kept). Safe to run twice: the decider ignores a second outcome, the poster's name
 * is fixed by the video id, and a job finding its video already rejected only removes the file
 * (again).
 */
export function videoProcessingHandler(deps: VideoProcessingDeps) {
  return async (job: JobMap['video.process'], ctx: JobContext): Promise<void> => {
    const file = path.join(deps.uploadsRoot, job.filePath.replace(/^\/uploads\//, ''));
    const removeRejected = () => rm(file, { force: true });
    const { state } = await loadState(deps.events, videoStream(job.videoId), videoDecider);
    if (state.status === 'rejected') return removeRejected();
    if (state.status === 'processed') return;
    await access(file); // a missing file is an error: retried with backoff, then failed
    const probe = await probeVideo(file);
    let posterPath: string | null = null;
    if (probe) {
      const name = `${job.videoId}.jpg`;
      if (await makePoster(file, path.join(deps.uploadsRoot, 'posters', name), probe.durationSeconds > 1 ? 0.5 : 0)) {
        posterPath = `/uploads/posters/${name}`;
      }
    }
    const outcome = await handleCommand(
      deps.events,
      videoStream(job.videoId),
      videoDecider,
      probe
        ? { type: 'RecordProcessing', videoId: job.videoId, ...probe, posterPath }
        : { type: 'RejectVideo', videoId: job.videoId, reason: VIDEO_MESSAGES.unreadable },
      { correlationId: ctx.jobId, causationId: ctx.jobId, now: new Date() },
    );
    if (outcome.state.status === 'rejected') await removeRejected();
  };
}
