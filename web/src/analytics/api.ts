import { ANALYTICS_PERIODS, CreatorAnalyticsAnswer, VideoAnalyticsAnswer, type AnalyticsPeriod } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';

/** `?period=` of the screen's address: one of 7, 30, 60; 7 otherwise. */
export function periodParam(raw: string | null): AnalyticsPeriod {
  return ANALYTICS_PERIODS.find((p) => String(p) === raw) ?? 7;
}

/** GET /api/analytics: the session member's analytics, or `pseudo`'s (administrators). */
export async function fetchCreatorAnalytics(period: AnalyticsPeriod, pseudo: string | null, signal: AbortSignal) {
  const query = new URLSearchParams({ period: String(period) });
  if (pseudo) query.set('pseudo', pseudo);
  return decode(CreatorAnalyticsAnswer, await api.get(`/api/analytics?${query}`, { signal }));
}

/** GET /api/analytics/videos/:id */
export async function fetchVideoAnalytics(videoId: string, period: AnalyticsPeriod, signal: AbortSignal) {
  return decode(
    VideoAnalyticsAnswer,
    await api.get(`/api/analytics/videos/${encodeURIComponent(videoId)}?period=${period}`, { signal }),
  );
}
