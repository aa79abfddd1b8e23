import { z } from 'zod';
import { getRoute } from '../api-route';

/** Answers of the creator analytics (`/api/analytics`, `/api/analytics/videos/:id`). */

/** The periods a creator may look at, in days (each ending today, Paris time). */
export const ANALYTICS_PERIODS = [7, 30, 60] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

/**
 * One Paris day's figures. `likes` is net: likes given that day less likes withdrawn that day
 * (negative on a day with more withdrawals), so a period's sum is how the video's like counter
 * moved; `likes_given` and `likes_withdrawn` are both directions.
 */
export const AnalyticsFigures = z.object({
  views: z.number(),
  likes: z.number(),
  likes_given: z.number(),
  likes_withdrawn: z.number(),
  comments: z.number(),
  /** gifts received (a creator's analytics only; 0 for a video: a gift is sent to a member) */
  gifts: z.number(),
  /** coins credited for them: their cost less the platform's fee */
  gift_coins: z.number(),
  followers_gained: z.number(),
  followers_lost: z.number(),
});
export type AnalyticsFigures = z.infer<typeof AnalyticsFigures>;

export const AnalyticsDay = AnalyticsFigures.extend({ day: z.string() });
export type AnalyticsDay = z.infer<typeof AnalyticsDay>;

/** A video of the creator's top of the period (most views, then net likes, then comments). */
export const AnalyticsTopVideo = z.object({
  id: z.number(),
  title: z.string(),
  poster: z.string().nullable(),
  /** publique, masquée or supprimée */
  status: z.string(),
  views: z.number(),
  likes: z.number(),
  comments: z.number(),
});
export type AnalyticsTopVideo = z.infer<typeof AnalyticsTopVideo>;

const period = {
  period: z.number(),
  /** always 'Europe/Paris': the days are Paris calendar days */
  time_zone: z.string(),
  /** first and last day of the period ('YYYY-MM-DD'), the last is today */
  from: z.string(),
  to: z.string(),
  /** every day of the period, oldest first, zeros included */
  days: z.array(AnalyticsDay),
  totals: AnalyticsFigures,
  /** the same figures over the `period` days just before */
  previous: AnalyticsFigures,
};

/** GET /api/analytics?period=7|30|60[&pseudo=] */
export const CreatorAnalyticsAnswer = z.object({
  pseudo: z.string(),
  ...period,
  top_videos: z.array(AnalyticsTopVideo),
});
export type CreatorAnalyticsAnswer = z.infer<typeof CreatorAnalyticsAnswer>;

/** GET /api/analytics/videos/:id?period=7|30|60 */
export const VideoAnalyticsAnswer = z.object({
  video: z.object({ id: z.number(), title: z.string(), status: z.string(), owner_pseudo: z.string() }),
  ...period,
});
export type VideoAnalyticsAnswer = z.infer<typeof VideoAnalyticsAnswer>;

/** The creator analytics routes (`?period=7|30|60`, and `&pseudo=` for another member's as an administrator). */
export const analyticsRoutes = {
  creator: getRoute('/api/analytics', CreatorAnalyticsAnswer),
  video: getRoute('/api/analytics/videos/:id', VideoAnalyticsAnswer),
};
