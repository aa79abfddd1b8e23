import type { EventStore, FileStore, JobHandlers } from '@evo/infra';
import { videoProcessingHandler } from './videos/process-video';

/** One handler per job type of JobMap: a job type without a handler does not compile. */
export function jobHandlers(deps: { events: EventStore; files: FileStore }): JobHandlers {
  return {
    'video.process': videoProcessingHandler(deps),
  };
}
