import type { RecordedAppEvent } from '@evo/domain';
import { VISIBILITY_DELETED, VISIBILITY_PUBLIC } from './videos-projector';

/*
 * Whether members see a video, as the projectors that keep their own copy of the videos follow it
 * from the events (the timelines, the likes and views counters): its status and its rejection by
 * processing. The `videos` read model says the same with its `processing` field (VISIBLE_VIDEO).
 */

/** What decides whether members see a video, in a projector's own copy of it. */
export interface VideoVisibility {
  /** publique, masquée or supprimée */
  status: string;
  /** rejected by processing (for good: the decider never processes it again) */
  rejected: boolean;
}

/** Members see a public video that processing did not reject. */
export const shownToMembers = (v: VideoVisibility) => v.status === VISIBILITY_PUBLIC && !v.rejected;

/** The events that change a video's VideoVisibility. */
export const VIDEO_VISIBILITY_EVENTS = ['VideoRejected', 'VideoDeleted', 'VideoVisibilityChanged'] as const;

/** What one of VIDEO_VISIBILITY_EVENTS changes of its video; null for any other event. */
export function visibilityChangeOf(
  event: RecordedAppEvent,
): { videoId: number; change: Partial<VideoVisibility> } | null {
  switch (event.type) {
    case 'VideoRejected':
      return { videoId: event.data.videoId, change: { rejected: true } };
    case 'VideoDeleted':
      return { videoId: event.data.videoId, change: { status: VISIBILITY_DELETED } };
    case 'VideoVisibilityChanged':
      return { videoId: event.data.videoId, change: { status: event.data.status } };
    default:
      return null;
  }
}
