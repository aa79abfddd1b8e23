/** Stream names of the social slice (see the header of ./events.ts). */
export const followingStream = (followerId: string) => `following-${followerId}`;
export const likeStream = (videoId: number, userId: string) => `like-${videoId}-${userId}`;
export const viewsStream = (videoId: number) => `views-${videoId}`;
/** one member's counted views of one video (the once-per-window rule) */
export const viewStream = (videoId: number, viewerId: string) => `view-${videoId}-${viewerId}`;
export const favoritesStream = (userId: string) => `favorites-${userId}`;

/**
 * Anti-spam windows. A like or a follow notifies its target at most once per
 * (actor, target, kind) in NOTIFICATION_WINDOW_MS, so like/unlike or follow/unfollow loops give one
 * notification; a member's views of one video count once per VIEW_WINDOW_MS (the product specification counts a view
 * per card display: still true for different members, and for one member across windows).
 */
export const NOTIFICATION_WINDOW_MS = 24 * 3600_000;
export const VIEW_WINDOW_MS = 30 * 60_000;

/** Is `now` at least `windowMs` after `since` (an ISO time, null when never)? */
export const windowElapsed = (since: string | null, now: Date, windowMs: number): boolean =>
  since === null || !(now.getTime() - Date.parse(since) < windowMs);

export const SOCIAL_MESSAGES = {
  selfFollow: 'Tu ne peux pas te suivre toi-même.',
} as const;
