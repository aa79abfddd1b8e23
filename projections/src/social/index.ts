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

/**
 * The social slice's projectors; they read `users` and `videos`, so they come after them (the
 * timeline reads only its own collections: it may run anywhere).
 */
export const socialProjectors: readonly Projector[] = [
  followsProjector,
  timelineProjector,
  videoCountersProjector,
  favoritesProjector,
];
