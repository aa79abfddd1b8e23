/**
 * Every background job type and its payload. A job type is a member of this map;
 * a JobQueue must be given one handler per member, so a job without a handler does not compile.
 */
export interface JobMap {
  /** probe an uploaded video (duration, size, codec) and make its poster; reject what is not a video */
  'video.process': { videoId: number; filePath: string };
}
export type JobType = keyof JobMap;
