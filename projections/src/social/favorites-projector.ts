import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { writeEdge } from '../runtime/write-once';
import { goneMember } from '../runtime/member-gone';
import { videoCopies } from '../runtime/own-copies';

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

/** which member owns each video (the projector's own copy: it never reads `videos`) */
const videos = videoCopies('favorite_videos', { titles: false });

/** Members' favourites, newest first. */
export const favoritesProjector: Projector = {
  name: 'favorites',
  collections: [FAVORITES, videos.collection],
  eventTypes: ['VideoFavorited', 'VideoUnfavorited', ...videos.eventTypes],
  indexes: {
    [FAVORITES]: [{ key: { user_id: 1, created_at: -1 } }, { key: { video_id: 1 } }],
    [videos.collection]: videos.indexes,
  },
  async project(event, store) {
    const gone = goneMember(event);
    if (gone) {
      // a deleted member's favourites go, and their videos leave everyone's favourites (read
      // before the copy forgets them at the erasure)
      const favorites = store.collection<FavoriteDoc>(FAVORITES);
      await favorites.deleteMany({ user_id: gone });
      const own = await videos.ownedBy(store, gone);
      if (own.length > 0) await favorites.deleteMany({ video_id: { $in: own.map((v) => v._id) } });
    }
    await videos.project(event, store);
    if (gone) return;
    if (event.type !== 'VideoFavorited' && event.type !== 'VideoUnfavorited') return;
    const { userId, videoId } = event.data;
    const favorites = store.collection<FavoriteDoc>(FAVORITES);
    const id = favoriteEdgeId(userId, videoId);
    const favorited = event.type === 'VideoFavorited';
    await writeEdge(
      favorites,
      id,
      event.position,
      favorited ? { user_id: userId, video_id: videoId, created_at: event.metadata.at } : null,
    );
  },
};
