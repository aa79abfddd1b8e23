import { createReadStream } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VIDEO_MESSAGES, videoDecider, videoStream, type JobMap } from '@evo/domain';
import {
  handleCommand,
  loadState,
  LocalFolderStore,
  type EventStore,
  type FileStore,
  type JobContext,
  childLogger,
} from '@evo/infra';
import { makePoster, probeVideo } from './probe';
import { eraseVideoFiles, posterName, videoFileName } from '@evo/command-api';

const log = childLogger('videos');

export interface VideoProcessingDeps {
  events: EventStore;
  /** where uploads are (a local folder or S3) */
  files: FileStore;
}

/** A missing upload: an error, so that the job is retried with backoff, then failed. */
class MissingUploadError extends Error {
  constructor(name: string) {
    super(`uploaded video ${name} is not in the file store`);
    this.name = 'MissingUploadError';
  }
}

/**
 * The 'video.process' job: probe the uploaded file, make its poster and record the outcome on the
 * video's stream. The file is read in place when the store is a local folder, otherwise fetched to
 * a temporary file (ffprobe and ffmpeg need one), and the poster is made beside it then stored. A
 * rejected file is removed once `VideoRejected` is recorded (never served, never kept); a video its
 * owner deleted has its files erased instead of processed. Safe to run twice: the decider ignores a
 * second outcome, the poster's name is fixed by the video id, and a job finding its video already
 * rejected or erased only removes the files (again). When its last try fails on our side (a full
 * disk, ffmpeg crashing, a missing file), the video is recorded as failed (`VideoProcessingFailed`):
 * its author sees it, and may have it processed again or delete it, instead of a video left "en
 * traitement" until the next restart.
 */
export function videoProcessingHandler(deps: VideoProcessingDeps) {
  return async (job: JobMap['video.process'], ctx: JobContext): Promise<void> => {
    const name = videoFileName(job.filePath);
    const removeRejected = () => deps.files.remove('videos', name);
    const { state } = await loadState(deps.events, videoStream(job.videoId), videoDecider);
    if (state.status !== 'none' && state.erased) return eraseVideoFiles(deps.files, job.videoId, job.filePath);
    if (state.status === 'rejected') return removeRejected();
    if (state.status === 'processed') return;

    try {
      await processOnce(deps, job, ctx, removeRejected);
    } catch (err) {
      if (ctx.attempt < ctx.attempts) throw err;
      log.error({ err, videoId: job.videoId, attempts: ctx.attempts }, 'video processing failed at every try');
      // (when this cannot be recorded either, the job fails: the start's re-queueing finds the video)
      await handleCommand(
        deps.events,
        videoStream(job.videoId),
        videoDecider,
        {
          type: 'FailProcessing',
          videoId: job.videoId,
          reason: VIDEO_MESSAGES.processingFailed,
          attempts: ctx.attempts,
        },
        { correlationId: ctx.jobId, causationId: ctx.jobId, now: new Date() },
      );
    }
  };
}

/** One try: the file probed, its poster stored, the outcome recorded. */
async function processOnce(
  deps: VideoProcessingDeps,
  job: JobMap['video.process'],
  ctx: JobContext,
  removeRejected: () => Promise<void>,
): Promise<void> {
  const name = videoFileName(job.filePath);
  const work = await mkdtemp(path.join(tmpdir(), 'evo-video-'));
  try {
    let file: string;
    if (deps.files instanceof LocalFolderStore) {
      file = deps.files.pathOf('videos', name);
      await access(file).catch(() => {
        throw new MissingUploadError(name);
      });
    } else {
      file = path.join(work, name);
      if (!(await deps.files.download('videos', name, file))) throw new MissingUploadError(name);
    }
    const probe = await probeVideo(file);
    let posterPath: string | null = null;
    if (probe) {
      const poster = path.join(work, posterName(job.videoId));
      if (await makePoster(file, poster, probe.durationSeconds > 1 ? 0.5 : 0)) {
        await deps.files.put('posters', posterName(job.videoId), createReadStream(poster), {
          contentType: 'image/jpeg',
        });
        posterPath = `/uploads/posters/${posterName(job.videoId)}`;
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
    // deleted by its owner while it was processed: the poster just made goes with the rest
    else if (outcome.state.status !== 'none' && outcome.state.erased) {
      await eraseVideoFiles(deps.files, job.videoId, job.filePath);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
