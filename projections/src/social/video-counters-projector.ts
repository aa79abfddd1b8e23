import type { Doc, ReadStore } from '@evo/infra';
import type { LogPosition } from '@evo/domain';
import type { ProjectionContext, Projector } from '../runtime/projector';
import { applyOnce, writeEdge } from '../runtime/write-once';
import { MEMBER_GONE_EVENTS, goneMember, tally } from '../runtime/member-gone';
import { VISIBILITY_PUBLIC } from '../videos/videos-projector';
import {
  VIDEO_VISIBILITY_EVENTS,
  shownToMembers,
  visibilityChangeOf,
  type VideoVisibility,
} from '../videos/video-visibility';

export const LIKES = 'likes';
/** one document per video: its likes and views, and whether members see it (its likes count on its owner then) */
export const VIDEO_COUNTERS = 'video_counters';
/** one document per creator: their visible videos and the likes of those videos */
export const CREATOR_COUNTERS = 'creator_counters';

/** One member's like of one video. */
export interface LikeDoc extends Doc {
  /** `${video_id}:${user_id}` */
  _id: string;
  video_id: number;
  user_id: string;
  created_at: string;
}

/** A video's counters, and what decides whether its likes count on its owner (as isVisibleVideo). */
export interface VideoCountersDoc extends Doc, VideoVisibility {
  _id: number;
  owner_id: string;
  likes_count: number;
  views_count: number;
}

/** A creator's figures: visible videos, and the likes of those videos. */
export interface CreatorCountersDoc extends Doc {
  _id: string;
  videos_count: number;
  total_likes: number;
}

export const likeEdgeId = (videoId: number, userId: string) => `${videoId}:${userId}`;

async function pushCounters(ctx: ProjectionContext, v: VideoCountersDoc | null, toOwner: boolean) {
  if (!ctx.live || !v) return;
  const payload = { videoId: v._id, likes_count: v.likes_count ?? 0, views_count: v.views_count ?? 0 };
  ctx.push(`video:${v._id}`, 'video:counters', payload);
  if (toOwner) ctx.push(`user:${v.owner_id}`, 'video:counters', payload);
}

/**
 * A video's visibility changes (`change`: its new status or its rejection). When it starts or
 * stops counting, its owner's `videos_count` and `total_likes` follow. The owner first, reading
 * the video as it was: if the process dies in between, the redelivery reads the same "before"
 * and the guard skips the part already applied, so the counters never drift.
 */
async function visibilityChanged(
  store: ReadStore,
  videoId: number,
  change: Partial<VideoVisibility>,
  position: LogPosition,
) {
  const videos = store.collection<VideoCountersDoc>(VIDEO_COUNTERS);
  const before = await videos.findOne({ _id: videoId });
  if (!before) return;
  const after = shownToMembers({ ...before, ...change });
  if (after !== shownToMembers(before)) {
    const sign = after ? 1 : -1;
    await applyOnce(store.collection<CreatorCountersDoc>(CREATOR_COUNTERS), before.owner_id, position, {
      $inc: { videos_count: sign, total_likes: sign * (before.likes_count ?? 0) },
    });
  }
  await applyOnce(videos, videoId, position, { $set: change });
}

/**
 * A deleted member's likes go, and the videos they liked (and those videos' owners) count one like
 * less; the likes of their own videos go with them, and their counters. Views stay: a count,
 * naming nobody. Their videos' counters stay until their erasure (a like racing the deletion is
 * taken out then).
 */
async function forgetLikes(store: ReadStore, memberId: string, position: LogPosition, erased: boolean) {
  const likes = store.collection<LikeDoc>(LIKES);
  const videos = store.collection<VideoCountersDoc>(VIDEO_COUNTERS);
  const given = await likes.find({ user_id: memberId }, { projection: { video_id: 1 } });
  const liked = (
    await videos.find(
      { _id: { $in: given.map((l) => l.video_id) } },
      { projection: { owner_id: 1, status: 1, rejected: 1 } },
    )
  ).filter((v) => v.owner_id !== memberId);
  for (const [owner, n] of tally(liked.filter(shownToMembers).map((v) => v.owner_id)))
    await applyOnce(store.collection<CreatorCountersDoc>(CREATOR_COUNTERS), owner, position, {
      $inc: { total_likes: -n },
    });
  for (const v of liked) await applyOnce(videos, v._id, position, { $inc: { likes_count: -1 } });
  await likes.deleteMany({ user_id: memberId });
  const own = await videos.find({ owner_id: memberId }, { projection: { _id: 1 } });
  if (own.length > 0) await likes.deleteMany({ video_id: { $in: own.map((v) => v._id) } });
  await store.collection(CREATOR_COUNTERS).deleteOne({ _id: memberId });
  if (erased) await videos.deleteMany({ owner_id: memberId });
}

/**
 * Likes and views: the `likes` edges, each video's `likes_count` / `views_count`, and each
 * creator's `videos_count` and `total_likes` (likes of their visible videos: a like of a video
 * already deleted counts on the video only; deleting a video takes its likes off its owner). It
 * follows the videos' visibility itself, from their events.
 */
export const videoCountersProjector: Projector = {
  name: 'video-counters',
  collections: [LIKES, VIDEO_COUNTERS, CREATOR_COUNTERS],
  eventTypes: [
    'VideoUploaded',
    ...VIDEO_VISIBILITY_EVENTS,
    'VideoLiked',
    'VideoUnliked',
    'VideoViewed',
    ...MEMBER_GONE_EVENTS,
  ],
  indexes: {
    [LIKES]: [{ key: { video_id: 1 } }, { key: { user_id: 1, created_at: -1 } }],
    [VIDEO_COUNTERS]: [{ key: { owner_id: 1 } }],
  },
  async project(event, store, ctx) {
    const gone = goneMember(event);
    if (gone) return forgetLikes(store, gone, event.position, event.type === 'MemberErased');
    const visibility = visibilityChangeOf(event);
    if (visibility) return visibilityChanged(store, visibility.videoId, visibility.change, event.position);
    const videos = store.collection<VideoCountersDoc>(VIDEO_COUNTERS);
    switch (event.type) {
      case 'VideoUploaded': {
        const d = event.data;
        await applyOnce(
          videos,
          d.videoId,
          event.position,
          {
            $set: { owner_id: d.ownerId, status: VISIBILITY_PUBLIC },
            $setOnInsert: { rejected: false, likes_count: 0, views_count: 0 },
          },
          { upsert: true },
        );
        // a new video is visible (being processed): one more on its owner's profile
        await applyOnce(
          store.collection<CreatorCountersDoc>(CREATOR_COUNTERS),
          d.ownerId,
          event.position,
          { $inc: { videos_count: 1 }, $setOnInsert: { total_likes: 0 } },
          { upsert: true },
        );
        return;
      }
      case 'VideoLiked':
      case 'VideoUnliked': {
        const { videoId, userId } = event.data;
        const likes = store.collection<LikeDoc>(LIKES);
        const like = event.type === 'VideoLiked';
        const id = likeEdgeId(videoId, userId);
        await writeEdge(
          likes,
          id,
          event.position,
          like ? { video_id: videoId, user_id: userId, created_at: event.metadata.at } : null,
        );
        const step = like ? 1 : -1;
        const video = await videos.findOne({ _id: videoId }, { projection: { owner_id: 1, status: 1, rejected: 1 } });
        if (video && shownToMembers(video))
          await applyOnce(store.collection<CreatorCountersDoc>(CREATOR_COUNTERS), video.owner_id, event.position, {
            $inc: { total_likes: step },
          });
        if (await applyOnce(videos, videoId, event.position, { $inc: { likes_count: step } }))
          await pushCounters(ctx, await videos.findOne({ _id: videoId }), true);
        return;
      }
      case 'VideoViewed':
        if (await applyOnce(videos, event.data.videoId, event.position, { $inc: { views_count: 1 } }))
          await pushCounters(ctx, await videos.findOne({ _id: event.data.videoId }), false);
        return;
      default:
        return;
    }
  },
};
