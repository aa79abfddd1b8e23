import type { Doc, ReadStore } from '@evo/infra';
import type { ProjectionContext, Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';
import { USERS, type UserDoc } from '../identity/users-projector';
import { VIDEOS, isVisibleVideo, type VideoDoc } from '../videos/videos-projector';
import { deleteOnce } from '../runtime/write-once';
import { MEMBER_GONE_EVENTS, goneMember, tally } from '../runtime/member-gone';
import type { LogPosition } from '@evo/domain';

export const LIKES = 'likes';
/** guard of this projector's writes to `videos` (likes_count, views_count) and `users` (total_likes) */
export const COUNTERS_GUARD = 'social_counters';

/** One member's like of one video. */
export interface LikeDoc extends Doc {
  /** `${video_id}:${user_id}` */
  _id: string;
  video_id: number;
  user_id: string;
  created_at: string;
}

export const likeEdgeId = (videoId: number, userId: string) => `${videoId}:${userId}`;

async function pushCounters(store: ReadStore, ctx: ProjectionContext, videoId: number, toOwner: boolean) {
  if (!ctx.live) return;
  const v = await store
    .collection<VideoDoc>(VIDEOS)
    .findOne({ _id: videoId }, { projection: { user_id: 1, likes_count: 1, views_count: 1 } });
  if (!v) return;
  const payload = { videoId, likes_count: v.likes_count ?? 0, views_count: v.views_count ?? 0 };
  ctx.push(`video:${videoId}`, 'video:counters', payload);
  if (toOwner) ctx.push(`user:${v.user_id}`, 'video:counters', payload);
}

/**
 * A deleted member's likes go, and the videos they liked (and those videos' owners) count one like
 * less; the likes of their own videos go with them. Views stay: a count, naming nobody.
 */
async function forgetLikes(store: ReadStore, memberId: string, position: LogPosition): Promise<void> {
  const likes = store.collection<LikeDoc>(LIKES);
  const videos = store.collection<VideoDoc>(VIDEOS);
  const given = await likes.find({ user_id: memberId }, { projection: { video_id: 1 } });
  const liked = await videos.find(
    { _id: { $in: given.map((l) => l.video_id) } },
    { projection: { user_id: 1, status: 1, processing: 1 } },
  );
  const ownersLost = tally(liked.filter((v) => v.user_id !== memberId && isVisibleVideo(v)).map((v) => v.user_id));
  for (const [owner, n] of ownersLost)
    await applyOnce(
      store.collection<UserDoc>(USERS),
      owner,
      position,
      { $inc: { total_likes: -n } },
      { guard: COUNTERS_GUARD },
    );
  for (const v of liked)
    if (v.user_id !== memberId)
      await applyOnce(videos, v._id, position, { $inc: { likes_count: -1 } }, { guard: COUNTERS_GUARD });
  await likes.deleteMany({ user_id: memberId });
  const own = await videos.find({ user_id: memberId }, { projection: { _id: 1 } });
  if (own.length > 0) await likes.deleteMany({ video_id: { $in: own.map((v) => v._id) } });
}

/**
 * Likes and views: the `likes` edges, the videos' `likes_count` / `views_count`, and the owners'
 * `total_likes` (likes of their visible videos: a like of a video already deleted counts on the
 * video only; deleting a video takes its likes off its owner, see the videos projector).
 */
export const videoCountersProjector: Projector = {
  name: 'video-counters',
  collections: [LIKES],
  eventTypes: ['VideoLiked', 'VideoUnliked', 'VideoViewed', ...MEMBER_GONE_EVENTS],
  indexes: { [LIKES]: [{ key: { video_id: 1 } }, { key: { user_id: 1, created_at: -1 } }] },
  async project(event, store, ctx) {
    const gone = goneMember(event);
    if (gone) return forgetLikes(store, gone, event.position);
    const videos = store.collection<VideoDoc>(VIDEOS);
    switch (event.type) {
      case 'VideoLiked':
      case 'VideoUnliked': {
        const { videoId, userId } = event.data;
        const likes = store.collection<LikeDoc>(LIKES);
        const like = event.type === 'VideoLiked';
        const id = likeEdgeId(videoId, userId);
        if (like)
          await applyOnce(
            likes,
            id,
            event.position,
            { $set: { video_id: videoId, user_id: userId, created_at: event.metadata.at } },
            { upsert: true },
          );
        else await deleteOnce(likes, id, event.position);
        const step = like ? 1 : -1;
        const video = await videos.findOne({ _id: videoId }, { projection: { user_id: 1, status: 1, processing: 1 } });
        if (video && isVisibleVideo(video)) {
          await applyOnce(
            store.collection<UserDoc>(USERS),
            video.user_id,
            event.position,
            { $inc: { total_likes: step } },
            { guard: COUNTERS_GUARD },
          );
        }
        if (
          await applyOnce(videos, videoId, event.position, { $inc: { likes_count: step } }, { guard: COUNTERS_GUARD })
        ) {
          await pushCounters(store, ctx, videoId, true);
        }
        return;
      }
      case 'VideoViewed':
        if (
          await applyOnce(
            videos,
            event.data.videoId,
            event.position,
            { $inc: { views_count: 1 } },
            { guard: COUNTERS_GUARD },
          )
        ) {
          await pushCounters(store, ctx, event.data.videoId, false);
        }
        return;
      default:
        return;
    }
  },
};
