import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';
import { deleteOnce } from '../runtime/write-once';

export const FAVORITES = 'favorites';

/** One video in one member's favourites. */
export interface FavoriteDoc extends Doc {
  /** `${user_id}:${video_id}` */
  _id: string;
  user_id: string;
  video_id: number;
  created_at: string;
}

export const favoriteEdgeId = (userId: string, videoId: number) => `${userId}:${videoId}`;

/** Members' favourites, newest first. */
export const favoritesProjector: Projector = {
  name: 'favorites',
  collections: [FAVORITES],
  eventTypes: ['VideoFavorited', 'VideoUnfavorited'],
  indexes: { [FAVORITES]: [{ key: { user_id: 1, created_at: -1 } }] },
  async project(event, store) {
    if (event.type !== 'VideoFavorited' && event.type !== 'VideoUnfavorited') return;
    const { userId, videoId } = event.data;
    const favorites = store.collection<FavoriteDoc>(FAVORITES);
    const id = favoriteEdgeId(userId, videoId);
    if (event.type === 'VideoFavorited') {
      await applyOnce(
        favorites,
        id,
        event.position,
        { $set: { user_id: userId, video_id: videoId, created_at: event.metadata.at } },
        { upsert: true },
      );
    } else {
      await deleteOnce(favorites, id, event.position);
    }
  },
};
