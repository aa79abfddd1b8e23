import type { JobHandlers } from '@evo/infra';
import { videoProcessingHandler } from './videos/process-video';
import { erasureHandler, type ErasureDeps } from './erasure/erase-member';
import { dataExportHandler } from './data-export/build-archive';

/** One handler per job type of JobMap: a job type without a handler does not compile. */
export function jobHandlers(deps: ErasureDeps): JobHandlers {
  return {
    'video.process': videoProcessingHandler(deps),
    'account.erase': erasureHandler(deps),
    'data-export.build': dataExportHandler(deps),
  };
}
