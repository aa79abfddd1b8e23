import type { Decider } from '../shared/decider';
import { requireAvailableVideo, type VideoState } from '../videos/video-decider';
import type { LikeEvent } from './events';
import { NOTIFICATION_WINDOW_MS, windowElapsed } from './rules';

/**
 * One member's like of one video: stream `like-<videoId>-<userId>`. The handler loads the video's
 * stream and passes its state: liking (or unliking) an unknown, deleted or hidden video is 404.
 * A like notifies the owner at most once per NOTIFICATION_WINDOW_MS (like/unlike loops: one).
 */
export type LikeCommand =
  | { type: 'Like'; videoId: number; userId: string; video: VideoState; now: Date }
  | { type: 'Unlike'; videoId: number; userId: string; video: VideoState; now: Date };

/** `notifiedAt`: when a like of this member last notified the owner (null: never, or unknown) */
export type LikeState = { liked: boolean; notifiedAt: string | null };

export const likeDecider: Decider<LikeCommand, LikeEvent, LikeState> = {
  initialState: () => ({ liked: false, notifiedAt: null }),
  evolve: (state, event) => {
    if (event.type === 'VideoUnliked') return { ...state, liked: false };
    const notified = event.data.notify !== false && event.data.at !== undefined;
    return { liked: true, notifiedAt: notified ? event.data.at! : state.notifiedAt };
  },
  decide(command, state) {
    const video = requireAvailableVideo(command.video);
    const data = { videoId: command.videoId, userId: command.userId, ownerId: video.ownerId };
    if (command.type === 'Like') {
      if (state.liked) return [];
      const notify = windowElapsed(state.notifiedAt, command.now, NOTIFICATION_WINDOW_MS);
      return [{ type: 'VideoLiked', data: { ...data, notify, at: command.now.toISOString() } }];
    }
    return state.liked ? [{ type: 'VideoUnliked', data }] : [];
  },
};
