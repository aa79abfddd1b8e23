import { normalize } from '@evo/domain';
import type { ProfileAnswer, PublicUser, VideoCard } from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import { ACCOUNT_DELETIONS, USERS, type AccountDeletionDoc, type UserDoc } from './users-projector';
import { PROCESSING, VIDEOS, VISIBILITY_HIDDEN, VISIBILITY_PUBLIC, type VideoDoc } from '../videos/videos-projector';
import { latestSanctions } from '../moderation/queries';
import { findByIds } from '../runtime/by-ids';
import { VIDEO_COUNTERS, type VideoCountersDoc } from '../social/video-counters-projector';
import { COMMENT_COUNTS, type CommentCountDoc } from '../comments/comments-projector';

/** The public face of a member (no internal fields). */
export const toPublicUser = (u: UserDoc): PublicUser => ({
  pseudo: u.pseudo,
  email: u.email,
  bio: u.bio,
  profile_picture: u.profile_picture,
});

/** A document without its internal fields (`_id`, idempotency guards `_pos*`). */
export function withoutInternals<T extends object>(doc: T): Omit<T, '_id'> {
  return Object.fromEntries(Object.entries(doc).filter(([k]) => !k.startsWith('_'))) as Omit<T, '_id'>;
}

/** What a card adds to its document's fields for one viewer (a field left undefined is not answered). */
export interface CardExtras {
  liked_by_me?: boolean;
  favorited_by_me?: boolean;
  moderation_message?: string | null;
}

/** A video's counters as its card shows them, each kept by the projector that counts it. */
export type VideoCounts = Pick<VideoCard, 'likes_count' | 'comments_count' | 'views_count'>;

/**
 * The counters of these videos: likes and views from `video_counters` (video-counters projector),
 * comments from `comment_counts` (comments projector); two `$in` lookups whatever the number.
 */
export async function videoCounts(read: ReadStore, ids: readonly number[]): Promise<Map<number, VideoCounts>> {
  const [counters, comments] = await Promise.all([
    findByIds(read.collection<VideoCountersDoc>(VIDEO_COUNTERS), ids, {
      projection: { likes_count: 1, views_count: 1 },
    }),
    findByIds(read.collection<CommentCountDoc>(COMMENT_COUNTS), ids, { projection: { comments_count: 1 } }),
  ]);
  const commented = new Map(comments.map((c) => [c._id, c.comments_count]));
  const out = new Map<number, VideoCounts>();
  for (const c of counters)
    out.set(c._id, {
      likes_count: c.likes_count,
      comments_count: commented.get(c._id) ?? 0,
      views_count: c.views_count,
    });
  return out;
}

/**
 * A video's card as answered: the contract's fields, read from its document and its counters
 * (`videoCounts`: 0 when it has none), and the viewer's extras. One object literal: a copy made field by field, through Object.entries or by spreading
 * a card into a new object with more fields becomes a hash-table object past about 16 fields
 * (1.8 KB each); feeds make dozens per page.
 */
export function publicVideo(v: VideoDoc, counts: VideoCounts | undefined, extras: CardExtras = {}): VideoCard {
  const card: Required<VideoCard> = {
    id: v.id,
    title: v.title,
    description: v.description,
    file_path: v.file_path,
    user_email: v.user_email,
    email: v.email,
    owner_email: v.owner_email,
    user_pseudo: v.user_pseudo,
    user_profile_picture: v.user_profile_picture,
    likes_count: counts?.likes_count ?? 0,
    comments_count: counts?.comments_count ?? 0,
    views_count: counts?.views_count ?? 0,
    status: v.status,
    processing: v.processing,
    reject_reason: v.reject_reason,
    poster: v.poster,
    duration: v.duration,
    created_at: v.created_at,
    liked_by_me: extras.liked_by_me!,
    favorited_by_me: extras.favorited_by_me!,
    moderation_message: extras.moderation_message!,
  };
  return card;
}

/** Videos per profile page (`?limit=` up to `maxLimit`). */
export const PROFILE_PAGE = { defaultLimit: 24, maxLimit: 60 } as const;

/** Deleted accounts whose erasure is not done (a start finishes them), oldest first. */
export async function deletionsNotErased(read: ReadStore): Promise<AccountDeletionDoc[]> {
  return read.collection<AccountDeletionDoc>(ACCOUNT_DELETIONS).find({ erased_at: null }, { sort: { deleted_at: 1 } });
}

export function identityQueries(read: ReadStore) {
  const users = read.collection<UserDoc>(USERS);
  const videos = read.collection<VideoDoc>(VIDEOS);
  return {
    userById: (id: string) => users.findOne({ _id: id }),
    userByEmail: (email: string) => users.findOne({ email_lc: normalize(email) }),
    userByPseudo: (pseudo: string) => users.findOne({ pseudo_lc: normalize(pseudo) }),
    /**
     * A member's public videos, newest first, one page at a time (`next_page`: null on the last).
     * Their owner also sees the rejected ones (with the reason) and, like administrators, the ones
     * hidden by moderation, with the sanction message (`moderation_message`, null when none was
     * sent). A page reads its videos in the index's order, so a creator with thousands of videos
     * costs what one with a page of them does.
     */
    async profile(
      pseudo: string,
      viewerId?: string,
      options: { viewerIsAdmin?: boolean; page?: number; limit?: number } = {},
    ): Promise<ProfileAnswer | null> {
      const user = await users.findOne({ pseudo_lc: normalize(pseudo) });
      if (!user) return null;
      const own = viewerId === user._id;
      const withHidden = own || options.viewerIsAdmin === true;
      const page = options.page ?? 1;
      const limit = options.limit ?? PROFILE_PAGE.defaultLimit;
      const list = await videos.find(
        {
          user_id: user._id,
          status: withHidden ? { $in: [VISIBILITY_PUBLIC, VISIBILITY_HIDDEN] } : VISIBILITY_PUBLIC,
          ...(own ? {} : { processing: { $ne: PROCESSING.rejected } }),
        },
        // one more than the page: tells whether another follows
        { sort: { created_at: -1, _id: -1 }, skip: (page - 1) * limit, limit: limit + 1 },
      );
      const shown = list.slice(0, limit);
      const hidden = shown.filter((v) => v.status === VISIBILITY_HIDDEN).map((v) => v.id);
      const [sanctions, counts] = await Promise.all([
        latestSanctions(read, hidden),
        videoCounts(
          read,
          shown.map((v) => v.id),
        ),
      ]);
      return {
        user: toPublicUser(user),
        videos: shown.map((v) =>
          v.status === VISIBILITY_HIDDEN
            ? publicVideo(v, counts.get(v.id), { moderation_message: sanctions.get(v.id) ?? null })
            : publicVideo(v, counts.get(v.id)),
        ),
        next_page: list.length > limit ? page + 1 : null,
      };
    },
  };
}
