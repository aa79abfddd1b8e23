import type { Projector } from '../runtime/projector';
import { followsProjector } from './follows-projector';
import { videoCountersProjector } from './video-counters-projector';
import { favoritesProjector } from './favorites-projector';
import { timelineProjector } from './timeline-projector';

export * from './follows-projector';
export * from './video-counters-projector';
export * from './favorites-projector';
export * from './timeline-projector';
export * from './queries';

/** The social slice's projectors (each writes its own collections only: any order). */
export const socialProjectors: readonly Projector[] = [
  followsProjector,
  timelineProjector,
  videoCountersProjector,
  favoritesProjector,
];
