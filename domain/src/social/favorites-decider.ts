import type { Decider } from '../shared/decider';
import { requireAvailableVideo, type VideoState } from '../videos/video-decider';
import type { FavoriteEvent } from './events';

/** A member's favourite videos: stream `favorites-<userId>`. */
export type FavoritesCommand = { type: 'ToggleFavorite'; userId: string; videoId: number; video: VideoState };

export type FavoritesState = { videoIds: ReadonlySet<number> };

export const favoritesDecider: Decider<FavoritesCommand, FavoriteEvent, FavoritesState> = {
  initialState: () => ({ videoIds: new Set() }),
  evolve(state, event) {
    const videoIds = new Set(state.videoIds);
    if (event.type === 'VideoFavorited') videoIds.add(event.data.videoId);
    else videoIds.delete(event.data.videoId);
    return { videoIds };
  },
  decide(command, state) {
    requireAvailableVideo(command.video);
    const data = { videoId: command.videoId, userId: command.userId };
    return state.videoIds.has(command.videoId)
      ? [{ type: 'VideoUnfavorited', data }]
      : [{ type: 'VideoFavorited', data }];
  },
};

/** Is the video a favourite once these events are applied? (what the toggle answers) */
export const isFavorite = (state: FavoritesState, videoId: number) => state.videoIds.has(videoId);
