import { requireAvailableVideo, type VideoState } from '../videos/video-decider';
import type { VideoViewed } from './events';

/**
 * A card display (SPEC.md: views are counted once per card display). Not a decider: every call
 * counts, so `views-<videoId>` is appended with expected revision 'any' and never folded.
 */
export function decideView(video: VideoState, viewerId: string): VideoViewed[] {
  const v = requireAvailableVideo(video);
  return [{ type: 'VideoViewed', data: { videoId: v.videoId, viewerId } }];
}
