/**
 * Every background job type and its payload. A job type is a member of this map;
 * a JobQueue must be given one handler per member, so a job without a handler does not compile.
 */
export interface JobMap {
  /** probe an uploaded video (duration, size, codec) and make its poster; reject what is not a video */
  'video.process': { videoId: number; filePath: string };
  /**
   * finish a deleted account's erasure: close the wallet, wait for the read models to forget the
   * member, remove their files, destroy their key, record MemberErased (identity/account-deletion.ts)
   */
  'account.erase': { userId: string };
  /** build a member's "Mes données" archive from the log (data-export-<memberId>) into the file store */
  'data-export.build': { exportId: string; memberId: string };
}
export type JobType = keyof JobMap;

/**
 * How each job is queued, by whoever queues it (a command, a start-up re-queue, the workers): one
 * job per subject (its `jobId`, so queueing twice runs it once) and its tries.
 */
interface QueuedJob {
  jobId: string;
  attempts: number;
  backoffMs: number;
}

/** a full disk or a crashed ffmpeg gets about a minute to pass before the video is recorded as failed */
export const VIDEO_JOB_TRIES = { attempts: 6, backoffMs: 2000 } as const;
export const videoJobOptions = (videoId: number, jobId = `video-${videoId}`): QueuedJob => ({
  jobId,
  ...VIDEO_JOB_TRIES,
});

/** retried for about 8 minutes, and queued again at every start until `MemberErased` is recorded */
export const erasureJobOptions = (userId: string): QueuedJob => ({
  jobId: `erase-${userId}`,
  attempts: 8,
  backoffMs: 2_000,
});

/** its last failure is recorded (`DataExportFailed`) */
export const DATA_EXPORT_JOB_TRIES = { attempts: 3, backoffMs: 5000 } as const;
export const dataExportJobOptions = (exportId: string): QueuedJob => ({
  jobId: `data-export-${exportId}`,
  ...DATA_EXPORT_JOB_TRIES,
});
