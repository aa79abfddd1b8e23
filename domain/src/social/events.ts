import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';

/**
 * Social facts. Streams:
 * - `following-<followerId>`: whom a member follows (UserFollowed / UserUnfollowed)
 * - `like-<videoId>-<userId>`: one member's like of one video (VideoLiked / VideoUnliked)
 * - `view-<videoId>-<viewerId>`: one member's counted views of a video (VideoViewed), once per
 *   VIEW_WINDOW_MS (older logs have them in `views-<videoId>`, every display counted)
 * - `favorites-<userId>`: a member's favourites (VideoFavorited / VideoUnfavorited)
 */
const id = z.string().min(1);
const videoId = z.number().int().positive();

/**
 * A follow or a like says whether it notifies its target (`notify`: false within the anti-spam
 * window of an earlier one) and when it happened (`at`, for the next one's window). Both are
 * absent from events written before the window existed: those notified.
 */
const notifying = { notify: z.boolean().optional(), at: z.string().optional() };
export const UserFollowedSchema = z.object({ followerId: id, followeeId: id, ...notifying });
export const UserUnfollowedSchema = z.object({ followerId: id, followeeId: id });
export const VideoLikedSchema = z.object({ videoId, userId: id, ownerId: id, ...notifying });
export const VideoUnlikedSchema = z.object({ videoId, userId: id, ownerId: id });
/** `at`: when the view was counted (absent from older logs) */
export const VideoViewedSchema = z.object({ videoId, viewerId: id, at: z.string().optional() });
export const VideoFavoritedSchema = z.object({ videoId, userId: id });
export const VideoUnfavoritedSchema = VideoFavoritedSchema;

export type UserFollowed = DomainEvent<'UserFollowed', z.infer<typeof UserFollowedSchema>>;
export type UserUnfollowed = DomainEvent<'UserUnfollowed', z.infer<typeof UserUnfollowedSchema>>;
export type VideoLiked = DomainEvent<'VideoLiked', z.infer<typeof VideoLikedSchema>>;
export type VideoUnliked = DomainEvent<'VideoUnliked', z.infer<typeof VideoUnlikedSchema>>;
export type VideoViewed = DomainEvent<'VideoViewed', z.infer<typeof VideoViewedSchema>>;
export type VideoFavorited = DomainEvent<'VideoFavorited', z.infer<typeof VideoFavoritedSchema>>;
export type VideoUnfavorited = DomainEvent<'VideoUnfavorited', z.infer<typeof VideoUnfavoritedSchema>>;

export type FollowEvent = UserFollowed | UserUnfollowed;
export type LikeEvent = VideoLiked | VideoUnliked;
export type FavoriteEvent = VideoFavorited | VideoUnfavorited;
export type SocialEvent = FollowEvent | LikeEvent | VideoViewed | FavoriteEvent;

export const socialEventSchemas = {
  UserFollowed: UserFollowedSchema,
  UserUnfollowed: UserUnfollowedSchema,
  VideoLiked: VideoLikedSchema,
  VideoUnliked: VideoUnlikedSchema,
  VideoViewed: VideoViewedSchema,
  VideoFavorited: VideoFavoritedSchema,
  VideoUnfavorited: VideoUnfavoritedSchema,
} as const;
