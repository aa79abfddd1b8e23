import type { EventStore, JobQueue } from '@evo/infra';
import { VideoLogFold, requeueVideos } from './video-log';

/**
 * Uploads recorded whose processing never recorded an outcome get their job again (see
 * `requeueVideos`), the log read here for that alone. The workers service folds the same facts in
 * its one start-up pass over the log instead.
 */
export async function requeueUnprocessedVideos(events: EventStore, jobs: JobQueue): Promise<number> {
  const fold = new VideoLogFold();
  for await (const batch of events.readAll(undefined, 2000)) for (const e of batch) fold.apply(e);
  return requeueVideos(fold, jobs);
}
