import { z } from 'zod';
import { cleanedText } from '../shared/text';

/** Stream names of the social slice (see the header of ./events.ts). */
export const followingStream = (followerId: string) => `following-${followerId}`;
export const likeStream = (videoId: number, userId: string) => `like-${videoId}-${userId}`;
export const viewsStream = (videoId: number) => `views-${videoId}`;
/** one member's counted views of one video (the once-per-window rule) */
export const viewStream = (videoId: number, viewerId: string) => `view-${videoId}-${viewerId}`;
export const favoritesStream = (userId: string) => `favorites-${userId}`;
export const reportClaimStream = (videoId: number, reporterId: string) => `report-claim-${videoId}-${reporterId}`;
/** sequence name of report ids (`ids.next(REPORT_SEQUENCE, ctx)`) */
export const REPORT_SEQUENCE = 'report';

/**
 * Anti-spam windows. A like or a follow notifies its target at most once per
 * (actor, target, kind) in NOTIFICATION_WINDOW_MS, so like/unlike or follow/unfollow loops give one
 * notification; a member's views of one video count once per VIEW_WINDOW_MS (SPEC.md counts a view
 * per card display: still true for different members, and for one member across windows).
 */
export const NOTIFICATION_WINDOW_MS = 24 * 3600_000;
export const VIEW_WINDOW_MS = 30 * 60_000;

/** Is `now` at least `windowMs` after `since` (an ISO time, null when never)? */
export const windowElapsed = (since: string | null, now: Date, windowMs: number): boolean =>
  since === null || !(now.getTime() - Date.parse(since) < windowMs);

export const REPORT_REASON_MAX = 500;
/** the reason stored when the member gave none (SPEC.md: "the reason (or 'Non spécifié')") */
export const DEFAULT_REPORT_REASON = 'Non spécifié';

export const SOCIAL_MESSAGES = {
  selfFollow: 'Vous ne pouvez pas vous suivre vous-même.',
  alreadyReported: 'Vous avez déjà signalé cette vidéo.',
  reasonInvalid: 'Le motif du signalement doit être un texte.',
  reasonTooLong: `Le motif du signalement ne doit pas dépasser ${REPORT_REASON_MAX} caractères.`,
} as const;

/** The reason of a report: trimmed, at most 500 characters, 'Non spécifié' when empty or absent. */
export const reportReasonField = cleanedText(
  z
    .string({ invalid_type_error: SOCIAL_MESSAGES.reasonInvalid })
    .trim()
    .max(REPORT_REASON_MAX, SOCIAL_MESSAGES.reasonTooLong)
    .nullish()
    .transform((r) => (r ? r : DEFAULT_REPORT_REASON)),
);
