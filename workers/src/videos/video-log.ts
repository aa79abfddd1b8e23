import type { RecordedEvent } from '@evo/domain';
import type { FileStore, JobQueue } from '@evo/infra';
import { videoJobOptions } from '@evo/domain';
import { posterName, videoFileName } from '@evo/command-api';

interface VideoFacts {
  filePath: string;
  ownerId: string;
  /** processed, rejected or deleted: no job to run */
  settled: boolean;
  /** deleted by its owner: its files are to be erased */
  erased: boolean;
}

/**
 * What the log says of every video's files, folded event by event: which uploads still wait for
 * their processing, and which stored files an event still names. The workers service folds it in
 * the same pass over the log as the gift credits' start scan (the log is read once at start).
 */
export class VideoLogFold {
  private readonly videos = new Map<number, VideoFacts>();

  apply(e: RecordedEvent): void {
    const videoId = (e.data as { videoId?: number } | null)?.videoId;
    if (videoId === undefined) return;
    if (e.type === 'VideoUploaded') {
      const d = e.data as { filePath: string; ownerId: string };
      this.videos.set(videoId, { filePath: d.filePath, ownerId: d.ownerId, settled: false, erased: false });
      return;
    }
    const v = this.videos.get(videoId);
    if (!v) return;
    // a failed processing waits for its author (retry or delete); a retry puts it back in the queue
    if (e.type === 'VideoProcessed' || e.type === 'VideoRejected' || e.type === 'VideoProcessingFailed')
      v.settled = true;
    else if (e.type === 'VideoProcessingRetried') v.settled = false;
    else if (e.type === 'VideoDeleted') {
      v.settled = true;
      if ((e.data as { deletedBy: string }).deletedBy === v.ownerId) v.erased = true;
    }
  }

  /** uploads recorded whose processing never recorded an outcome (nor were they deleted) */
  unprocessed(): Array<{ videoId: number; filePath: string }> {
    const out: Array<{ videoId: number; filePath: string }> = [];
    for (const [videoId, v] of this.videos) if (!v.settled) out.push({ videoId, filePath: v.filePath });
    return out;
  }

  /** the stored names an event still names: each video's file and poster, but an erased video's */
  named(): NamedVideoFiles {
    const videoFiles = new Set<string>();
    const posters = new Set<string>();
    for (const [videoId, v] of this.videos) {
      if (v.erased) continue;
      videoFiles.add(videoFileName(v.filePath));
      posters.add(posterName(videoId));
    }
    return async (folder, names) => {
      const named = folder === 'videos' ? videoFiles : posters;
      return new Set(names.filter((n) => named.has(n)));
    };
  }
}

/** Of some stored names of a folder, those the log (or a read model built from it) still names. */
export type NamedVideoFiles = (folder: 'videos' | 'posters', names: string[]) => Promise<Set<string>>;

/**
 * Uploads recorded whose processing never recorded an outcome get their job again: an API replica
 * that died between appending `VideoUploaded` and queueing the job (or a Redis that lost the
 * queue) would otherwise leave the video "en traitement" for ever. The job id is the one the API
 * gives (`video-<id>`), so a job still queued is not added twice, and the handler ignores a video
 * that already has its outcome. Answers the number of jobs queued.
 */
export async function requeueVideos(fold: VideoLogFold, jobs: JobQueue): Promise<number> {
  const pending = fold.unprocessed();
  for (const { videoId, filePath } of pending) {
    await jobs.add('video.process', { videoId, filePath }, videoJobOptions(videoId));
  }
  return pending.length;
}

/** names looked up at once: a read model answers a page of them with one indexed query */
const NAMES_PER_LOOKUP = 500;

/**
 * Removes the video files and posters no event names any more (an upload stored by a process that
 * died before appending its event, a video its owner deleted whose files outlived the deletion),
 * sparing files changed within `graceMs` of `now`: they may belong to an upload in flight, whose
 * event is about to be appended. Only the older files are looked up, a page at a time, so a start
 * with none reads nothing and the lookups leave room for requests. Answers the names removed.
 */
export async function sweepOrphanVideoFiles(
  files: FileStore,
  named: NamedVideoFiles,
  options: { graceMs: number; now?: number },
): Promise<string[]> {
  const before = (options.now ?? Date.now()) - options.graceMs;
  const removed: string[] = [];
  for (const folder of ['videos', 'posters'] as const) {
    const old: string[] = [];
    for await (const f of files.list(folder)) if (f.modifiedAt.getTime() < before) old.push(f.name);
    for (let i = 0; i < old.length; i += NAMES_PER_LOOKUP) {
      const page = old.slice(i, i + NAMES_PER_LOOKUP);
      const keep = await named(folder, page);
      for (const name of page) {
        if (keep.has(name)) continue;
        await files.remove(folder, name);
        removed.push(`${folder}/${name}`);
      }
    }
  }
  return removed;
}
