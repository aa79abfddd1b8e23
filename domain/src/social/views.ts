import type { Decider } from '../shared/decider';
import { requireAvailableVideo, type VideoState } from '../videos/video-decider';
import type { VideoViewed } from './events';
import { VIEW_WINDOW_MS, windowElapsed } from './rules';

/**
 * A card display (the product specification: views are counted once per card display), of an available video. The
 * availability check alone, for histories written without the window (tests and older logs);
 * the product counts views through `viewDecider`.
 */
export function decideView(video: VideoState, viewerId: string): VideoViewed[] {
  const v = requireAvailableVideo(video);
  return [{ type: 'VideoViewed', data: { videoId: v.videoId, viewerId } }];
}

export type ViewCommand = { type: 'ViewVideo'; viewerId: string; video: VideoState; now: Date };
/** when this member's last counted view of the video was (null: never) */
export type ViewState = { countedAt: string | null };

/**
 * One member's views of one video: stream `view-<videoId>-<viewerId>`. A display counts once per
 * VIEW_WINDOW_MS: 100 displays in a row count one; other members, and the same member in a later
 * window, count again. Appended with its expected revision, so two concurrent displays in one
 * window count once. The owner's own displays never count (their views are others' views).
 */
export const viewDecider: Decider<ViewCommand, VideoViewed, ViewState> = {
  initialState: () => ({ countedAt: null }),
  evolve: (state, event) => ({ countedAt: event.data.at ?? state.countedAt }),
  decide(command, state) {
    const v = requireAvailableVideo(command.video);
    if (v.ownerId === command.viewerId) return [];
    if (!windowElapsed(state.countedAt, command.now, VIEW_WINDOW_MS)) return [];
    return [
      { type: 'VideoViewed', data: { videoId: v.videoId, viewerId: command.viewerId, at: command.now.toISOString() } },
    ];
  },
};
