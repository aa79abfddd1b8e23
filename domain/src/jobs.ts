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
