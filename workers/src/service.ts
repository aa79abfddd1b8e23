import { childLogger, type EventStore, type FileStore, type JobQueue } from '@evo/infra';
import { jobHandlers } from './handlers';
import { startExportSweeper } from './data-export/sweep';
import { GiftCreditProcess, WalletRepository } from '@evo/command-api';
import { VideoLogFold, requeueVideos, sweepOrphanVideoFiles } from './videos/video-log';
import { erasureJobOptions } from '@evo/domain';
import { type MemberKeys, type ReadModelProgress } from './erasure/erase-member';

const log = childLogger('workers');

export interface WorkersServiceParts {
  events: EventStore;
  jobs: JobQueue;
  files: FileStore;
  /** video files no event names are removed at start once older than this (ms) */
  orphanGraceMs: number;
  /** jobs run at once by this process */
  concurrency?: number;
  /** the members' key store (the account erasure destroys a deleted member's key) */
  keys: MemberKeys;
  /** the read models' progress, where this service can see them (the erasure waits for them) */
  progress?: ReadModelProgress;
}

export interface RunningWorkers {
  giftCredits: GiftCreditProcess;
  /** video jobs queued again at start */
  requeued: number;
  /** the sweep of orphan video files started at start (resolves to the names removed) */
  swept: Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * What the workers service runs, once per topology: the job handlers (video processing), the gift
 * credits, the re-queueing of uploads never processed and the sweep of orphan video files. The log
 * is read once at start: the gift credits' start scan also folds what the video jobs and files need.
 */
export async function startWorkersService(parts: WorkersServiceParts): Promise<RunningWorkers> {
  const { events, jobs, files } = parts;
  const wallets = new WalletRepository(events);
  await jobs.process(jobHandlers({ events, files, wallets, keys: parts.keys, progress: parts.progress }), {
    concurrency: parts.concurrency ?? 2,
  });
  const videos = new VideoLogFold();
  // deleted accounts whose erasure is not recorded (a process died during it)
  const unerased = new Set<string>();
  // gifts sent are credited to their receiver: scans the log, then follows it
  const giftCredits = new GiftCreditProcess(events, {
    wallets,
    onError: (err) => log.error({ err }, 'gift credit error, retrying'),
    onScanned: (e) => {
      videos.apply(e);
      if (e.type === 'AccountDeleted') unerased.add((e.data as { userId: string }).userId);
      else if (e.type === 'MemberErased') unerased.delete((e.data as { userId: string }).userId);
    },
  });
  await giftCredits.start();
  // uploads recorded whose job was never queued (an API replica died in between) get it now
  const requeued = await requeueVideos(videos, jobs);
  if (requeued > 0) log.info({ videos: requeued }, 'video jobs queued again');
  for (const userId of unerased) await jobs.add('account.erase', { userId }, erasureJobOptions(userId));
  if (unerased.size > 0) log.info({ members: unerased.size }, 'effacements de comptes repris');
  // files of uploads no event names (a process died between storing and appending), after a grace period
  const swept = sweepOrphanVideoFiles(files, videos.named(), { graceMs: parts.orphanGraceMs }).then(
    (removed) => {
      if (removed.length > 0) log.info({ removed }, 'orphan video files removed');
      return removed;
    },
    (err: unknown) => {
      log.error({ err }, 'orphan video files not swept');
      return [];
    },
  );
  // "Mes données" archives past their link's life
  const stopExportSweeper = startExportSweeper(files);
  return {
    giftCredits,
    requeued,
    swept,
    async stop() {
      stopExportSweeper();
      await giftCredits.stop();
      await jobs.close();
    },
  };
}
