import type { LogPosition } from '@evo/domain';
import type { Doc, ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { MEMBER_GONE_EVENTS, goneMember } from '../runtime/member-gone';
import { applyOnce, insertOnce } from '../runtime/write-once';
import { parisDay } from './days';

/** one document per creator and Paris day: what their videos and their profile received that day */
export const ANALYTICS_CREATOR_DAYS = 'analytics_creator_days';
/** one document per video and Paris day */
export const ANALYTICS_VIDEO_DAYS = 'analytics_video_days';
/** one document per video: its owner (a view names only the video) */
export const ANALYTICS_VIDEOS = 'analytics_videos';

/** The day's figures, each counted when it happened (an unlike on the day of the unlike). */
export interface DayCounters {
  views: number;
  /** likes given that day */
  likes: number;
  /** likes withdrawn that day (whenever they were given) */
  unlikes: number;
  comments: number;
  /** gifts received that day (by the day they were sent) */
  gifts: number;
  /** coins credited to the creator for them: the gifts' cost less the platform's fee */
  gift_coins: number;
  followers_gained: number;
  followers_lost: number;
}
export type DayCounter = keyof DayCounters;

export interface CreatorDayDoc extends Doc, Partial<DayCounters> {
  _id: string;
  user_id: string;
  day: string;
}

export interface VideoDayDoc extends Doc, Partial<Pick<DayCounters, 'views' | 'likes' | 'unlikes' | 'comments'>> {
  _id: string;
  video_id: number;
  owner_id: string;
  day: string;
}

export interface AnalyticsVideoDoc extends Doc {
  _id: number;
  owner_id: string;
}

const creatorDayId = (userId: string, day: string) => `${userId}|${day}`;
const videoDayId = (videoId: number, day: string) => `${videoId}|${day}`;

/** +1 (or +n) on a creator's day; guarded by the event's position, so a redelivery adds nothing. */
function bumpCreator(store: ReadStore, position: LogPosition, userId: string, at: string, inc: Partial<DayCounters>) {
  const day = parisDay(at);
  return applyOnce(
    store.collection<CreatorDayDoc>(ANALYTICS_CREATOR_DAYS),
    creatorDayId(userId, day),
    position,
    { $set: { user_id: userId, day }, $inc: inc },
    { upsert: true },
  );
}

function bumpVideo(
  store: ReadStore,
  position: LogPosition,
  videoId: number,
  ownerId: string,
  at: string,
  inc: Partial<DayCounters>,
) {
  const day = parisDay(at);
  return applyOnce(
    store.collection<VideoDayDoc>(ANALYTICS_VIDEO_DAYS),
    videoDayId(videoId, day),
    position,
    { $set: { video_id: videoId, owner_id: ownerId, day }, $inc: inc },
    { upsert: true },
  );
}

/**
 * Creator analytics: per creator and per video, per Paris day, the views, likes and unlikes,
 * comments, gifts received and followers gained and lost, counted as the events come (live and
 * in a rebuild alike: the day comes from the event's own time, never from the clock). Each event
 * makes at most one guarded write per document, so a redelivered event counts once.
 */
export const analyticsProjector: Projector = {
  name: 'analytics',
  collections: [ANALYTICS_CREATOR_DAYS, ANALYTICS_VIDEO_DAYS, ANALYTICS_VIDEOS],
  eventTypes: [
    'VideoUploaded',
    'VideoViewed',
    'VideoLiked',
    'VideoUnliked',
    'CommentPosted',
    'GiftReceived',
    'UserFollowed',
    'UserUnfollowed',
    ...MEMBER_GONE_EVENTS,
  ],
  indexes: {
    [ANALYTICS_CREATOR_DAYS]: [{ key: { user_id: 1, day: 1 } }],
    [ANALYTICS_VIDEO_DAYS]: [{ key: { video_id: 1, day: 1 } }, { key: { owner_id: 1, day: 1 } }],
    [ANALYTICS_VIDEOS]: [{ key: { owner_id: 1 } }],
  },
  async project(event, store) {
    const pos = event.position;
    const at = event.metadata.at;
    const videoAndCreator = async (videoId: number, ownerId: string, inc: Partial<DayCounters>) => {
      await bumpVideo(store, pos, videoId, ownerId, at, inc);
      await bumpCreator(store, pos, ownerId, at, inc);
    };
    const gone = goneMember(event);
    if (gone) {
      // a deleted creator's figures go (what they gave others stays in those figures: counts, naming nobody)
      await store.collection<CreatorDayDoc>(ANALYTICS_CREATOR_DAYS).deleteMany({ user_id: gone });
      await store.collection<VideoDayDoc>(ANALYTICS_VIDEO_DAYS).deleteMany({ owner_id: gone });
      await store.collection<AnalyticsVideoDoc>(ANALYTICS_VIDEOS).deleteMany({ owner_id: gone });
      return;
    }
    switch (event.type) {
      case 'VideoUploaded':
        await insertOnce(store.collection<AnalyticsVideoDoc>(ANALYTICS_VIDEOS), {
          _id: event.data.videoId,
          owner_id: event.data.ownerId,
        });
        return;
      case 'VideoViewed': {
        const video = await store.collection<AnalyticsVideoDoc>(ANALYTICS_VIDEOS).findOne({ _id: event.data.videoId });
        if (video) await videoAndCreator(video._id, video.owner_id, { views: 1 });
        return;
      }
      case 'VideoLiked':
        await videoAndCreator(event.data.videoId, event.data.ownerId, { likes: 1 });
        return;
      case 'VideoUnliked':
        await videoAndCreator(event.data.videoId, event.data.ownerId, { unlikes: 1 });
        return;
      case 'CommentPosted':
        await videoAndCreator(event.data.videoId, event.data.videoOwnerId, { comments: 1 });
        return;
      case 'GiftReceived':
        // the day the gift was sent, as the received-gifts list shows it
        await bumpCreator(store, pos, event.data.userId, event.data.sentAt, {
          gifts: 1,
          gift_coins: event.data.amount,
        });
        return;
      case 'UserFollowed':
        await bumpCreator(store, pos, event.data.followeeId, at, { followers_gained: 1 });
        return;
      case 'UserUnfollowed':
        await bumpCreator(store, pos, event.data.followeeId, at, { followers_lost: 1 });
        return;
    }
  },
};
