import { normalize } from '@evo/domain';
import type { Doc, FindOptions, ReadCollection, ReadStore } from '@evo/infra';
import { USERS, type UserDoc } from '../identity/users-projector';
import { publicVideo } from '../identity/queries';
import { VIDEOS, VISIBLE_VIDEO, isVisibleVideo, type VideoDoc } from '../videos/videos-projector';
import { FOLLOWING, FOLLOWS, followEdgeId, type FollowDoc, type FollowingDoc } from './follows-projector';
import { LIKES, likeEdgeId, type LikeDoc } from './video-counters-projector';
import { FAVORITES, favoriteEdgeId, type FavoriteDoc } from './favorites-projector';

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

/** Newest first; the index order breaks ties by _id. */
const NEWEST = { created_at: -1, _id: 1 } as const;

/** A video card as answered (SPEC.md section 3 "Video"; internal fields and the owner's id left out). */
export type VideoCard = Pick<
  VideoDoc,
  | 'id'
  | 'title'
  | 'description'
  | 'file_path'
  | 'user_email'
  | 'email'
  | 'owner_email'
  | 'user_pseudo'
  | 'user_profile_picture'
  | 'likes_count'
  | 'comments_count'
  | 'views_count'
  | 'status'
  | 'processing'
  | 'reject_reason'
  | 'poster'
  | 'duration'
  | 'created_at'
>;
export type PublicVideo = VideoCard & Record<string, unknown>;
/** every public field of the document (other slices may add some), typed for the known ones */
export const toVideoCard = (v: VideoDoc): PublicVideo => publicVideo(v) as unknown as PublicVideo;

/** SPEC.md section 3 "Friend entry". */
export interface FriendEntry {
  pseudo: string;
  email: string;
  bio: string;
  profile_picture: string;
  followers: number;
  videos_count: number;
  likes: number;
}

/** SPEC.md section 3 "Suggested user". */
export interface SuggestedUser {
  email: string;
  pseudo: string;
  profile_picture: string;
  videos: PublicVideo[];
}

export interface UserStats {
  following: number;
  followers: number;
  total_likes: number;
}

/**
 * MongoDB-style `$in` lists are tested document by document against the whole list, so long
 * lists are split: the cost stays linear in the number of ids.
 */
const ID_CHUNK = 64;
/**
 * followees per windowed feed query: each candidate video is tested against the query's whole
 * `$in` list, so small lists keep that cost (and the garbage it makes) low
 */
const FEED_SEEK_CHUNK = 128;
/** from this many followees, the feed first scans the platform's newest videos */
const FEED_SCAN_ABOVE = 256;
const DAY_MS = 86_400_000;
/** the scan of the newest videos for members following many gives up after this many */
const FEED_SCAN_MAX = 3000;
/** beyond this window the feed query drops its lower time bound */
const MAX_WINDOW_MS = 50 * 365 * DAY_MS;

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** documents by _id, in the order of `ids` (missing ones left out) */
async function findByIds<T extends Doc>(coll: ReadCollection<T>, ids: ReadonlyArray<T['_id']>, options: FindOptions = {}): Promise<T[]> {
  const found = (await Promise.all(chunks(ids, ID_CHUNK).map((c) => coll.find({ _id: { $in: c } }, options)))).flat();
  const byId = new Map(found.map((d) => [d._id, d]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const newestFirst = (a: VideoDoc, b: VideoDoc) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id - b.id);

/**
 * Read side of the social slice. Every query goes through an index or _id: whom a member follows
 * through their `following` list, edges through `follows`, feeds through videos
 * (user_id, status, created_at), suggestions through users (created_at).
 */
export function socialQueries(read: ReadStore) {
  const users = read.collection<UserDoc>(USERS);
  const videos = read.collection<VideoDoc>(VIDEOS);
  const follows = read.collection<FollowDoc>(FOLLOWS);
  const following = read.collection<FollowingDoc>(FOLLOWING);
  const likes = read.collection<LikeDoc>(LIKES);
  const favorites = read.collection<FavoriteDoc>(FAVORITES);

  /** ids of the members `userId` follows, most recently followed first */
  const followingIds = async (userId: string): Promise<string[]> => [...((await following.findOne({ _id: userId }))?.ids ?? [])].reverse();

  /** newest visible videos of the platform, kept when by one of `followees`; null when too sparse */
  async function feedByScan(followees: ReadonlySet<string>, needed: number): Promise<VideoDoc[] | null> {
    const batch = Math.max(200, needed * 4);
    const out: VideoDoc[] = [];
    for (let skip = 0; skip < FEED_SCAN_MAX; skip += batch) {
      const docs = await videos.find(VISIBLE_VIDEO, { sort: NEWEST, skip, limit: batch });
      for (const v of docs) if (followees.has(v.user_id)) out.push(v);
      if (out.length >= needed || docs.length < batch) return out;
    }
    return null;
  }

  /** each followee's newest visible videos in a widening time window, merged */
  async function feedBySeek(ids: readonly string[], needed: number): Promise<VideoDoc[]> {
    const newest = await videos.findOne(VISIBLE_VIDEO, { sort: NEWEST, projection: { created_at: 1 } });
    if (!newest) return [];
    const anchor = Date.parse(newest.created_at);
    const groups = chunks(ids, FEED_SEEK_CHUNK);
    let window = DAY_MS;
    let previous = -1;
    for (;;) {
      // a wider window that found nothing more: the followees' videos are old, read them all
      const bounded = window < MAX_WINDOW_MS;
      const since = bounded ? { created_at: { $gte: new Date(anchor - window).toISOString() } } : {};
      const parts = await Promise.all(
        groups.map((g) => videos.find({ user_id: { $in: g }, ...VISIBLE_VIDEO, ...since }, { sort: NEWEST, limit: needed })),
      );
      const list = parts.flat();
      if (list.length >= needed || !bounded) return groups.length > 1 ? list.sort(newestFirst) : list;
      if (list.length === previous) window = MAX_WINDOW_MS;
      previous = list.length;
      // widen in proportion to what is missing (at least twice, at most 64 times)
      window *= Math.min(64, Math.max(2, Math.ceil((needed / Math.max(1, list.length)) * 1.5)));
    }
  }

  /** flags of the viewer on these videos */
  async function viewerFlags(viewerId: string, videoIds: number[]) {
    if (videoIds.length === 0) return { liked: new Set<number>(), favorited: new Set<number>() };
    const [l, f] = await Promise.all([
      likes.find({ _id: { $in: videoIds.map((v) => likeEdgeId(v, viewerId)) } }, { projection: { video_id: 1 } }),
      favorites.find({ _id: { $in: videoIds.map((v) => favoriteEdgeId(viewerId, v)) } }, { projection: { video_id: 1 } }),
    ]);
    return { liked: new Set(l.map((x) => x.video_id)), favorited: new Set(f.map((x) => x.video_id)) };
  }

  async function withViewerFlags(viewerId: string, list: VideoDoc[]) {
    const flags = await viewerFlags(viewerId, list.map((v) => v.id));
    return list.map((v) => ({ ...toVideoCard(v), liked_by_me: flags.liked.has(v.id), favorited_by_me: flags.favorited.has(v.id) }));
  }

  return {
    followingIds,
    userById: (id: string) => users.findOne({ _id: id }),
    userByEmail: (email: string) => users.findOne({ email_lc: normalize(email) }),
    userByPseudo: (pseudo: string) => users.findOne({ pseudo_lc: normalize(pseudo) }),

    async isFollowing(followerId: string, followeeId: string): Promise<boolean> {
      return (await follows.findOne({ _id: followEdgeId(followerId, followeeId) }, { projection: { _id: 1 } })) !== null;
    },

    async stats(userId: string): Promise<UserStats | null> {
      const u = await users.findOne({ _id: userId }, { projection: { following_count: 1, followers_count: 1, total_likes: 1 } });
      if (!u) return null;
      return { following: count(u.following_count), followers: count(u.followers_count), total_likes: count(u.total_likes) };
    },

    /** the members `userId` follows, most recently followed first (SPEC.md "Friend entry") */
    async friends(userId: string): Promise<FriendEntry[]> {
      const ids = await followingIds(userId);
      if (ids.length === 0) return [];
      return (await findByIds(users, ids)).map((u) => ({
            pseudo: u.pseudo,
            email: u.email,
            bio: u.bio,
            profile_picture: u.profile_picture,
            followers: count(u.followers_count),
            videos_count: count(u.videos_count),
            likes: count(u.total_likes),
      }));
    },

    /**
     * Members with at least one visible video whom `userId` does not follow (nor themselves),
     * newest members first (followed members are spread over that order, so few are skipped),
     * each with their newest visible videos.
     */
    async suggestions(userId: string, page: Page): Promise<SuggestedUser[]> {
      const excluded = new Set([userId, ...(await followingIds(userId))]);
      const needed = skipOf(page) + page.limit;
      const batch = Math.max(20, needed * 2);
      const kept: UserDoc[] = [];
      for (let skip = 0; kept.length < needed; skip += batch) {
        const docs = await users.find({ videos_count: { $gt: 0 } }, { sort: { created_at: -1, _id: 1 }, skip, limit: batch });
        for (const u of docs) if (!excluded.has(u._id)) kept.push(u);
        if (docs.length < batch) break;
      }
      const found = kept.slice(skipOf(page), needed);
      const lists = await Promise.all(
        found.map((u) => videos.find({ user_id: u._id, ...VISIBLE_VIDEO }, { sort: NEWEST, limit: SUGGESTION_VIDEOS })),
      );
      // the viewer's flags (one lookup for the page): their videos are liked and favourited from the feed too
      const flags = await viewerFlags(userId, lists.flat().map((v) => v.id));
      return found.map((u, i) => ({
        email: u.email,
        pseudo: u.pseudo,
        profile_picture: u.profile_picture,
        videos: lists[i].map((v) => ({ ...toVideoCard(v), liked_by_me: flags.liked.has(v.id), favorited_by_me: flags.favorited.has(v.id) })),
      }));
    },

    /**
     * Visible videos of the members `userId` follows, newest first. Reading every video of every
     * followee to keep the newest would cost their whole history. A member following many
     * (over 256) is served by a scan of the platform's newest videos kept when by a followee (they
     * are dense there); otherwise, or when that scan finds them too sparse, each followee's videos
     * are sought through the (user_id, status, created_at) index within a time window from the
     * platform's newest video, widened until it holds the page (geometrically, so at most about
     * twice the needed videos are read).
     */
    async friendsFeed(userId: string, page: Page) {
      const ids = await followingIds(userId);
      if (ids.length === 0) return [];
      const needed = skipOf(page) + page.limit;
      const list = (ids.length > FEED_SCAN_ABOVE ? await feedByScan(new Set(ids), needed) : null) ?? (await feedBySeek(ids, needed));
      return withViewerFlags(userId, list.slice(skipOf(page), needed));
    },

    /** the viewer's favourite videos still visible, most recently added first */
    async favorites(userId: string, page: Page) {
      const favs = await favorites.find({ user_id: userId }, { sort: { created_at: -1 }, skip: skipOf(page), limit: page.limit, projection: { video_id: 1 } });
      if (favs.length === 0) return [];
      const list = (await findByIds(videos, favs.map((f) => f.video_id))).filter(isVisibleVideo);
      return withViewerFlags(userId, list);
    },

    /** one video (whatever its visibility: the caller decides who may see it) with the viewer's flags */
    async video(videoId: number, viewerId: string) {
      const v = await videos.findOne({ _id: videoId });
      if (!v) return null;
      const [shown] = await withViewerFlags(viewerId, [v]);
      return { doc: v, visible: isVisibleVideo(v), video: shown };
    },

    async likesCount(videoId: number): Promise<number | null> {
      const v = await videos.findOne({ _id: videoId }, { projection: { likes_count: 1 } });
      return v ? (v.likes_count ?? 0) : null;
    },
  };
}

export type SocialQueries = ReturnType<typeof socialQueries>;
