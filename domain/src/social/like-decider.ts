import type { Decider } from '../shared/decider';
import { requireAvailableVideo, type VideoState } from '../videos/video-decider';
import type { LikeEvent } from './events';

/**
 * One member's like of one video: stream `like-<videoId>-<userId>`. The handler loads the video's
 * stream and passes its state: liking (or unliking) an unknown, deleted or hidden video is 404.
 */
export type LikeCommand =
  | { type: 'Like'; videoId: number; userId: string; video: VideoState }
  | { type: 'Unlike'; videoId: number; userId: string; video: VideoState };

export type LikeState = { liked: boolean };

export const likeDecider: Decider<LikeCommand, LikeEvent, LikeState> = {
  initialState: () => ({ liked: false }),
  evolve: (_state, event) => ({ liked: event.type === 'VideoLiked' }),
  decide(command, state) {
    const video = requireAvailableVideo(command.video);
    const data = { videoId: command.videoId, userId: command.userId, ownerId: video.ownerId };
    if (command.type === 'Like') return state.liked ? [] : [{ type: 'VideoLiked', data }];
    return state.liked ? [{ type: 'VideoUnliked', data }] : [];
  },
};
