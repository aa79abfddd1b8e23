import type { Projector } from './runtime/projector';
import { usersProjector } from './identity/users-projector';
import { videosProjector } from './videos/videos-projector';

/** Every projector, in the order they see each event (users before what denormalises them). */
export const allProjectors: readonly Projector[] = [usersProjector, videosProjector];
