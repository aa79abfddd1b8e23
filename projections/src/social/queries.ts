import { normalize } from '@evo/domain';
import type { FriendEntry, SuggestedUser, UserStats, ViewerVideo } from '@evo/contracts';
import type { FindOptions, ReadStore } from '@evo/infra';
import { findByIds } from '../runtime/by-ids';
import { USERS, type UserDoc } from '../identity/users-projector';
import { publicVideo, videoCounts, type VideoCounts } from '../identity/queries';
import { VIDEOS, VISIBLE_VIDEO, isVisibleVideo, type VideoDoc } from '../videos/videos-projector';
import {
  FOLLOWING,
  FOLLOWS,
  FOLLOW_COUNTS,
  followEdgeId,
  type FollowCountsDoc,
  type FollowDoc,
  type FollowingDoc,
} from './follows-projector';
import {
  CREATOR_COUNTERS,
  LIKES,
  VIDEO_COUNTERS,
  likeEdgeId,
  type CreatorCountersDoc,
  type LikeDoc,
  type VideoCountersDoc,
} from './video-counters-projector';
import { FAVORITES, favoriteEdgeId, type FavoriteDoc } from './favorites-projector';
import {
  ENTRY_ORDER,
  HUB_VIDEO_ORDER,
  TIMELINE_CREATORS,
  TIMELINE_ENTRIES,
  TIMELINE_FOLLOWS,
  TIMELINE_VIDEOS,
  feedOrder,
  type TimelineCreatorDoc,
  type TimelineEntry,
  type TimelineEntryDoc,
  type TimelineFollowDoc,
  type TimelineVideoDoc,
} from './timeline-projector';

export const PAGE = { defaultLimit: 20, maxLimit: 50 } as const;
/** videos shown with each suggested member (the card plays the first) */
export const SUGGESTION_VIDEOS = 3;

export interface Page {
  /** 1-based */
  page: number;
  limit: number;
}

const skipOf = (p: Page) => (p.page - 1) * p.limit;
/** a counter of a read-model document (absent until its first change) */
const count = (v: unknown): number => (typeof v === 'number' ? v : 0);

/**
 * The order of a member's visible videos in the (user_id, status, created_at, _id) index: newest
 * first, ties by the larger id. Reading in this order lets a query stop after `limit` documents;
 * feeds break ties the other way (feedOrder), which newestVisibleVideos restores.
 */
const INDEX_NEWEST = { created_at: -1, _id: -1 } as const;

/** A video card as answered (the product entities, "Video") with the viewer's flags. */
const viewerVideo = (v: VideoDoc, counts: VideoCounts | undefined, liked: boolean, favorited: boolean): ViewerVideo =>
  publicVideo(v, counts, { liked_by_me: liked, favorited_by_me: favorited }) as ViewerVideo;

/**
 * Read side of the social slice. Every query goes through an index or _id: whom a member follows
 * through their `following` list, edges through `follows`, feeds through `timeline_entries`
 * (follower_id, at, video_id) and, for hubs, `timeline_videos` (owner_id, visible, at, _id),
 * suggestions through users (created_at).
 */
export function socialQueries(read: ReadStore) {
  const users = read.collection<UserDoc>(USERS);
  const videos = read.collection<VideoDoc>(VIDEOS);
  const follows = read.collection<FollowDoc>(FOLLOWS);
  const following = read.collection<FollowingDoc>(FOLLOWING);
  const likes = read.collection<LikeDoc>(LIKES);
  const favorites = read.collection<FavoriteDoc>(FAVORITES);
  const timeline = read.collection<TimelineEntryDoc>(TIMELINE_ENTRIES);
  const timelineVideos = read.collection<TimelineVideoDoc>(TIMELINE_VIDEOS);
  const timelineFollows = read.collection<TimelineFollowDoc>(TIMELINE_FOLLOWS);
  const creators = read.collection<TimelineCreatorDoc>(TIMELINE_CREATORS);
  const creatorCounters = read.collection<CreatorCountersDoc>(CREATOR_COUNTERS);
  const followCounts = read.collection<FollowCountsDoc>(FOLLOW_COUNTS);
  const videoCounters = read.collection<VideoCountersDoc>(VIDEO_COUNTERS);

  /** ids of the members `userId` follows, most recently followed first */
  const followingIds = async (userId: string): Promise<string[]> =>
    [...((await following.findOne({ _id: userId }))?.ids ?? [])].reverse();

  /** entries of `userId`'s timeline in feed order, from `skip`, at most `limit` */
  const timelineEntries = async (userId: string, skip: number, limit: number): Promise<TimelineEntry[]> =>
    (
      await timeline.find(
        { follower_id: userId },
        { sort: ENTRY_ORDER, skip, limit, projection: { video_id: 1, at: 1 } },
      )
    ).map((e) => ({ id: e.video_id, at: e.at }));

  /** the `limit` newest visible videos of the hub `creatorId`, none older than `since`, in feed order */
  const hubEntries = async (creatorId: string, limit: number, since: string | undefined): Promise<TimelineEntry[]> =>
    (
      await timelineVideos.find(
        { owner_id: creatorId, visible: true, ...(since === undefined ? {} : { at: { $gte: since } }) },
        { sort: HUB_VIDEO_ORDER, limit, projection: { _id: 1, at: 1 } },
      )
    ).map((v) => ({ id: v._id, at: v.at }));

  /**
   * The `limit` newest visible videos of `creatorId` (none older than `since`), in feed order
   * (newest first, ties by the smaller id). They are read in index order, one more than asked,
   * which stops whatever the creator's video count. That order breaks ties by the larger id: only
   * when the extra video shares the date of the last one kept does a tie straddle the cut, and the
   * videos of that date are read again so that the smaller ids are kept, as feedOrder wants.
   */
  async function newestVisibleVideos(
    creatorId: string,
    limit: number,
    options: { since?: string; projection?: FindOptions['projection'] } = {},
  ): Promise<VideoDoc[]> {
    const { since, projection } = options;
    const filter = { user_id: creatorId, ...VISIBLE_VIDEO };
    const read = await videos.find(since === undefined ? filter : { ...filter, created_at: { $gte: since } }, {
      sort: INDEX_NEWEST,
      limit: limit + 1,
      projection,
    });
    const byFeedOrder = (a: VideoDoc, b: VideoDoc) =>
      feedOrder({ id: a._id, at: a.created_at }, { id: b._id, at: b.created_at });
    if (read.length <= limit) return read.sort(byFeedOrder);
    const last = read[limit - 1].created_at;
    if (read[limit].created_at !== last) return read.slice(0, limit).sort(byFeedOrder);
    const ties = await videos.find({ ...filter, created_at: last }, { projection });
    return [...read.filter((v) => v.created_at > last), ...ties].sort(byFeedOrder).slice(0, limit);
  }

  /** the counters of these videos, and the flags of the viewer on them (none for a visitor) */
  async function cardData(viewerId: string | undefined, videoIds: number[]) {
    if (videoIds.length === 0)
      return { counts: new Map<number, VideoCounts>(), liked: new Set<number>(), favorited: new Set<number>() };
    const [counts, l, f] = await Promise.all([
      videoCounts(read, videoIds),
      viewerId
        ? likes.find({ _id: { $in: videoIds.map((v) => likeEdgeId(v, viewerId)) } }, { projection: { video_id: 1 } })
        : [],
      viewerId
        ? favorites.find(
            { _id: { $in: videoIds.map((v) => favoriteEdgeId(viewerId, v)) } },
            { projection: { video_id: 1 } },
          )
        : [],
    ]);
    return { counts, liked: new Set(l.map((x) => x.video_id)), favorited: new Set(f.map((x) => x.video_id)) };
  }

  async function cards(viewerId: string | undefined, list: VideoDoc[]): Promise<ViewerVideo[]> {
    const d = await cardData(
      viewerId,
      list.map((v) => v.id),
    );
    return list.map((v) => viewerVideo(v, d.counts.get(v.id), d.liked.has(v.id), d.favorited.has(v.id)));
  }

  return {
    followingIds,
    userById: (id: string) => users.findOne({ _id: id }),
    userByEmail: (email: string) => users.findOne({ email_lc: normalize(email) }),
    userByPseudo: (pseudo: string) => users.findOne({ pseudo_lc: normalize(pseudo) }),

    async isFollowing(followerId: string, followeeId: string): Promise<boolean> {
      return (
        (await follows.findOne({ _id: followEdgeId(followerId, followeeId) }, { projection: { _id: 1 } })) !== null
      );
    },

    async stats(userId: string): Promise<UserStats | null> {
      const [u, f, c] = await Promise.all([
        users.findOne({ _id: userId }, { projection: { _id: 1 } }),
        followCounts.findOne({ _id: userId }),
        creatorCounters.findOne({ _id: userId }, { projection: { total_likes: 1 } }),
      ]);
      if (!u) return null;
      return {
        following: count(f?.following_count),
        followers: count(f?.followers_count),
        total_likes: count(c?.total_likes),
      };
    },

    /** the members `userId` follows, most recently followed first (the product rule "Friend entry") */
    async friends(userId: string): Promise<FriendEntry[]> {
      const ids = await followingIds(userId);
      if (ids.length === 0) return [];
      const [members, f, c] = await Promise.all([
        findByIds(users, ids, { projection: { pseudo: 1, email: 1, bio: 1, profile_picture: 1 } }),
        findByIds(followCounts, ids, { projection: { followers_count: 1 } }),
        findByIds(creatorCounters, ids, { projection: { videos_count: 1, total_likes: 1 } }),
      ]);
      const followers = new Map(f.map((x) => [x._id, x.followers_count]));
      const created = new Map(c.map((x) => [x._id, x]));
      return members.map((u) => ({
        pseudo: u.pseudo,
        email: u.email,
        bio: u.bio,
        profile_picture: u.profile_picture,
        followers: count(followers.get(u._id)),
        videos_count: count(created.get(u._id)?.videos_count),
        likes: count(created.get(u._id)?.total_likes),
      }));
    },

    /**
     * Members with at least one visible video whom `userId` does not follow (nor themselves),
     * newest members first (followed members are spread over that order, so few are skipped),
     * each with their newest visible videos.
     */
    async suggestions(userId: string, page: Page): Promise<SuggestedUser[]> {
      const needed = skipOf(page) + page.limit;
      const batch = Math.max(20, needed * 2);
      const kept: Pick<UserDoc, '_id' | 'email' | 'pseudo' | 'profile_picture'>[] = [];
      for (let skip = 0; kept.length < needed; skip += batch) {
        const docs = await users.find(
          {},
          {
            sort: { created_at: -1, _id: 1 },
            skip,
            limit: batch,
            projection: { email: 1, pseudo: 1, profile_picture: 1 },
          },
        );
        // which of these have a visible video, and whom of these the member follows: their
        // counters and follow edges by _id, not the member's whole following list (its size
        // would set the cost of every page)
        const [withVideos, edges] = await Promise.all([
          findByIds(
            creatorCounters,
            docs.map((u) => u._id),
            { projection: { videos_count: 1 } },
          ),
          findByIds(
            follows,
            docs.map((u) => followEdgeId(userId, u._id)),
            { projection: { followee_id: 1 } },
          ),
        ]);
        const creating = new Set(withVideos.filter((c) => c.videos_count > 0).map((c) => c._id));
        const followed = new Set(edges.map((f) => f.followee_id));
        for (const u of docs) if (creating.has(u._id) && u._id !== userId && !followed.has(u._id)) kept.push(u);
        if (docs.length < batch) break;
      }
      const found = kept.slice(skipOf(page), needed);
      const lists = await Promise.all(found.map((u) => newestVisibleVideos(u._id, SUGGESTION_VIDEOS)));
      // counters and the viewer's flags (one lookup for the page): their videos are liked and favourited from the feed too
      const d = await cardData(
        userId,
        lists.flat().map((v) => v.id),
      );
      return found.map((u, i) => ({
        email: u.email,
        pseudo: u.pseudo,
        profile_picture: u.profile_picture,
        videos: lists[i].map((v) => viewerVideo(v, d.counts.get(v.id), d.liked.has(v.id), d.favorited.has(v.id))),
      }));
    },

    /**
     * Visible videos of the members `userId` follows, newest first (ties by video id), read from
     * their timeline (see the timeline projector): one page of its entries in the order of their
     * index, then those videos by _id. The videos of the hubs they follow (creators with very
     * many followers, not fanned out; found by the follow edges' _id) are merged in: each hub's
     * newest visible videos in the order of their index, no older than the timeline's last entry
     * of the pages up to this one. Nothing here grows with the follow count or the platform's
     * size, except the number of hubs.
     */
    async friendsFeed(userId: string, page: Page): Promise<ViewerVideo[]> {
      const skip = skipOf(page);
      const needed = skip + page.limit;
      const hubIds = (await creators.find({ hub: true }, { projection: { _id: 1 } })).map((c) => c._id);
      const followedHubs = (
        await findByIds(
          timelineFollows,
          hubIds.map((h) => followEdgeId(userId, h)),
          { projection: { followee_id: 1 } },
        )
      ).map((f) => f.followee_id);
      let pageEntries: TimelineEntry[];
      if (followedHubs.length === 0) {
        pageEntries = await timelineEntries(userId, skip, page.limit);
      } else {
        const entries = await timelineEntries(userId, 0, needed);
        // older than the needed-th timeline entry, a hub's video cannot be on these pages
        const since = entries.length >= needed ? entries[entries.length - 1].at : undefined;
        const parts = await Promise.all(followedHubs.map((h) => hubEntries(h, needed, since)));
        const merged = entries;
        for (const part of parts) merged.push(...part);
        merged.sort(feedOrder);
        // a video twice (a hub's video still in a timeline) would sit next to itself: kept once
        pageEntries = [];
        for (let i = 0; i < merged.length && pageEntries.length < needed; i++)
          if (i === 0 || merged[i].id !== merged[i - 1].id) pageEntries.push(merged[i]);
        pageEntries = pageEntries.slice(skip);
      }
      const list = (
        await findByIds(
          videos,
          pageEntries.map((e) => e.id),
        )
      ).filter(isVisibleVideo);
      return cards(userId, list);
    },

    /** the viewer's favourite videos still visible, most recently added first */
    async favorites(userId: string, page: Page): Promise<ViewerVideo[]> {
      const favs = await favorites.find(
        { user_id: userId },
        { sort: { created_at: -1 }, skip: skipOf(page), limit: page.limit, projection: { video_id: 1 } },
      );
      if (favs.length === 0) return [];
      const list = (
        await findByIds(
          videos,
          favs.map((f) => f.video_id),
        )
      ).filter(isVisibleVideo);
      return cards(userId, list);
    },

    /**
     * one video (whatever its visibility: the caller decides who may see it) with the viewer's
     * flags (none for a visitor, `viewerId` undefined)
     */
    async video(videoId: number, viewerId: string | undefined) {
      const v = await videos.findOne({ _id: videoId });
      if (!v) return null;
      const [shown] = await cards(viewerId, [v]);
      return { doc: v, visible: isVisibleVideo(v), video: shown };
    },

    async likesCount(videoId: number): Promise<number | null> {
      const v = await videoCounters.findOne({ _id: videoId }, { projection: { likes_count: 1 } });
      return v ? (v.likes_count ?? 0) : null;
    },
  };
}

export type SocialQueries = ReturnType<typeof socialQueries>;
