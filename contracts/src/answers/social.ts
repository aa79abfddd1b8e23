import { z } from 'zod';
import { getRoute } from '../api-route';

/** Answers of the members, follows and videos routes (`/api/users/*`, `/api/follows/*`, `/api/videos/*`). */

/** The public face of a member, GET /api/users/by-pseudo/:pseudo. */
export const PublicUser = z.object({
  pseudo: z.string(),
  email: z.string(),
  bio: z.string(),
  /** '' when the member has none */
  profile_picture: z.string(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** A video as the lists and the video page answer it (the product entities, "Video"). */
export const VideoCard = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  /** e.g. '/uploads/videos/x.mp4', same origin */
  file_path: z.string(),
  /** the owner (also answered as `email` and `owner_email`, the names older clients read) */
  user_email: z.string(),
  email: z.string(),
  owner_email: z.string(),
  user_pseudo: z.string(),
  user_profile_picture: z.string(),
  likes_count: z.number(),
  comments_count: z.number(),
  views_count: z.number(),
  /** visibility: 'publique', or 'masquée' / 'supprimée' as its author (hidden only) and administrators see it */
  status: z.string(),
  /**
   * 'en_traitement', 'prête', 'rejetée' (the owner also sees rejected ones, with the reason) or
   * 'échouée' (every try failed on the server's side: the owner may try again or delete it)
   */
  processing: z.string(),
  reject_reason: z.string().nullable(),
  poster: z.string().nullable(),
  /** seconds, once processed */
  duration: z.number().nullable(),
  created_at: z.string(),
  /** the viewer's flags (feeds, favourites, the video page; not the profile's list) */
  liked_by_me: z.boolean().optional(),
  favorited_by_me: z.boolean().optional(),
  /** the sanction message of a video hidden by moderation (to its author and administrators only) */
  moderation_message: z.string().nullable().optional(),
});
export type VideoCard = z.infer<typeof VideoCard>;

/** A video with the viewer's flags: the friends feed, the favourites, GET /api/videos/:id. */
export const ViewerVideo = VideoCard.extend({ liked_by_me: z.boolean(), favorited_by_me: z.boolean() });
export type ViewerVideo = z.infer<typeof ViewerVideo>;

/** GET /api/users/profile/:pseudo?page=&limit=: one page of videos, newest first; `next_page` null on the last. */
export const ProfileAnswer = z.object({
  user: PublicUser,
  videos: z.array(VideoCard),
  next_page: z.number().nullable(),
});
export type ProfileAnswer = z.infer<typeof ProfileAnswer>;

/** GET /api/users/stats/:email */
export const UserStats = z.object({ following: z.number(), followers: z.number(), total_likes: z.number() });
export type UserStats = z.infer<typeof UserStats>;

/** A member I follow, with their counters, GET /api/users/friends/:email (the product entities, "Friend entry"). */
export const FriendEntry = PublicUser.extend({ followers: z.number(), videos_count: z.number(), likes: z.number() });
export type FriendEntry = z.infer<typeof FriendEntry>;

/** A member I do not follow, with their newest videos, GET /api/users/with-videos (the product entities, "Suggested user"). */
export const SuggestedUser = z.object({
  email: z.string(),
  pseudo: z.string(),
  profile_picture: z.string(),
  videos: z.array(ViewerVideo),
});
export type SuggestedUser = z.infer<typeof SuggestedUser>;

/** GET /api/users/follows/is-following/:followerEmail/:pseudo (and /api/follows/is-following/…) */
export const IsFollowingAnswer = z.object({ isFollowing: z.boolean() });
export type IsFollowingAnswer = z.infer<typeof IsFollowingAnswer>;

/** POST and DELETE /api/videos/:id/like */
export const LikeAnswer = z.object({ liked: z.boolean(), likes_count: z.number() });
export type LikeAnswer = z.infer<typeof LikeAnswer>;

/** POST /api/favorite/:id */
export const FavoriteAnswer = z.object({ favorited: z.boolean(), message: z.string() });
export type FavoriteAnswer = z.infer<typeof FavoriteAnswer>;

/** POST /api/videos/upload → 201 */
export const VideoUploadedAnswer = z.object({
  message: z.string(),
  video: z.object({ id: z.number(), title: z.string(), description: z.string(), file_path: z.string() }),
});
export type VideoUploadedAnswer = z.infer<typeof VideoUploadedAnswer>;

/** The members, follows and videos routes the web app reads. */
export const socialRoutes = {
  /** `?currentEmail=&page=&limit=` */
  suggestions: getRoute('/api/users/with-videos', z.array(SuggestedUser)),
  /** `?page=&limit=` */
  profile: getRoute('/api/users/profile/:pseudo', ProfileAnswer),
  stats: getRoute('/api/users/stats/:email', UserStats),
  isFollowing: getRoute('/api/users/follows/is-following/:followerEmail/:pseudo', IsFollowingAnswer),
  /** the same, the followed member named by email (a follow notification's sender) */
  isFollowingEmail: getRoute('/api/users/is-following/:email/:targetEmail', IsFollowingAnswer),
  friends: getRoute('/api/users/friends/:email', z.array(FriendEntry)),
  userByPseudo: getRoute('/api/users/by-pseudo/:pseudo', PublicUser),
  video: getRoute('/api/videos/:id', VideoCard),
  /** `?page=&limit=`: the videos of the members I follow, newest first */
  friendsFeed: getRoute('/api/videos/friends-feed/:email', z.array(ViewerVideo)),
};
