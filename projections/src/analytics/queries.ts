import type {
  AnalyticsDay,
  AnalyticsFigures,
  AnalyticsPeriod,
  AnalyticsTopVideo,
  CreatorAnalyticsAnswer,
  VideoAnalyticsAnswer,
} from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import { VIDEOS, type VideoDoc } from '../videos/videos-projector';
import {
  ANALYTICS_CREATOR_DAYS,
  ANALYTICS_VIDEO_DAYS,
  type CreatorDayDoc,
  type DayCounters,
  type VideoDayDoc,
} from './analytics-projector';
import { ANALYTICS_TIME_ZONE, addDays, daysBetween, parisDay } from './days';

/** videos in a creator's top of the period */
export const TOP_VIDEOS = 5;

const n = (v: unknown) => (typeof v === 'number' ? v : 0);

/** A stored day as answered: likes net, both directions kept. */
const figuresOf = (d: Partial<DayCounters> | undefined): AnalyticsFigures => ({
  views: n(d?.views),
  likes: n(d?.likes) - n(d?.unlikes),
  likes_given: n(d?.likes),
  likes_withdrawn: n(d?.unlikes),
  comments: n(d?.comments),
  gifts: n(d?.gifts),
  gift_coins: n(d?.gift_coins),
  followers_gained: n(d?.followers_gained),
  followers_lost: n(d?.followers_lost),
});

const sum = (list: AnalyticsFigures[]): AnalyticsFigures => {
  const total = figuresOf(undefined);
  for (const f of list) for (const k of Object.keys(total) as (keyof AnalyticsFigures)[]) total[k] += f[k];
  return total;
};

/**
 * The period ending on `today` and the one just before it, from a creator's or a video's day
 * documents (one indexed range read over both periods: at most 120 documents).
 */
function periodOf(docs: Array<Partial<DayCounters> & { day: string }>, period: AnalyticsPeriod, today: string) {
  const from = addDays(today, -(period - 1));
  const previousFrom = addDays(from, -period);
  const byDay = new Map(docs.map((d) => [d.day, d]));
  const figuresOn = (day: string) => figuresOf(byDay.get(day));
  const days: AnalyticsDay[] = daysBetween(from, today).map((day) => ({ day, ...figuresOn(day) }));
  const previous = sum(daysBetween(previousFrom, addDays(from, -1)).map(figuresOn));
  return {
    period,
    time_zone: ANALYTICS_TIME_ZONE,
    from,
    to: today,
    days,
    totals: sum(days),
    previous,
  };
}

/** The creator analytics read side: indexed range reads of the analytics projector's day documents. */
export function analyticsQueries(read: ReadStore) {
  const creatorDays = read.collection<CreatorDayDoc>(ANALYTICS_CREATOR_DAYS);
  const videoDays = read.collection<VideoDayDoc>(ANALYTICS_VIDEO_DAYS);
  const videos = read.collection<VideoDoc>(VIDEOS);
  const range = (period: AnalyticsPeriod, today: string) => ({
    $gte: addDays(today, -(2 * period - 1)),
    $lte: today,
  });

  return {
    /** The video whose analytics are asked for (any visibility: its owner follows it even hidden). */
    videoById: (id: number) => videos.findOne({ _id: id }),

    /** A creator's figures over `period` days ending today (Paris), the previous period's, and their top videos. */
    async creator(
      user: { _id: string; pseudo: string },
      period: AnalyticsPeriod,
      now: Date,
    ): Promise<CreatorAnalyticsAnswer> {
      const today = parisDay(now);
      const docs = await creatorDays.find({ user_id: user._id, day: range(period, today) }, { sort: { day: 1 } });
      const answer = periodOf(docs, period, today);
      return { pseudo: user.pseudo, ...answer, top_videos: await this.topVideos(user._id, answer.from, today) };
    },

    /** The creator's videos with the most views over [from, to], then the most net likes, then comments. */
    async topVideos(ownerId: string, from: string, to: string): Promise<AnalyticsTopVideo[]> {
      const docs = await videoDays.find({ owner_id: ownerId, day: { $gte: from, $lte: to } });
      const per = new Map<number, { views: number; likes: number; comments: number }>();
      for (const d of docs) {
        const v = per.get(d.video_id) ?? { views: 0, likes: 0, comments: 0 };
        v.views += n(d.views);
        v.likes += n(d.likes) - n(d.unlikes);
        v.comments += n(d.comments);
        per.set(d.video_id, v);
      }
      const ranked = [...per.entries()]
        .sort(([a, x], [b, y]) => y.views - x.views || y.likes - x.likes || y.comments - x.comments || a - b)
        .slice(0, TOP_VIDEOS);
      const found = await videos.find({ _id: { $in: ranked.map(([id]) => id) } });
      const byId = new Map(found.map((v) => [v._id, v]));
      return ranked.map(([id, figures]) => {
        const v = byId.get(id);
        return {
          id,
          title: v?.title ?? `Vidéo ${id}`,
          poster: v?.poster ?? null,
          status: v?.status ?? 'supprimée',
          ...figures,
        };
      });
    },

    /** One video's figures over `period` days ending today (Paris) and the previous period's. */
    async video(
      video: { id: number; title: string; status: string; user_pseudo: string },
      period: AnalyticsPeriod,
      now: Date,
    ): Promise<VideoAnalyticsAnswer> {
      const today = parisDay(now);
      const docs = await videoDays.find({ video_id: video.id, day: range(period, today) }, { sort: { day: 1 } });
      return {
        video: { id: video.id, title: video.title, status: video.status, owner_pseudo: video.user_pseudo },
        ...periodOf(docs, period, today),
      };
    },
  };
}
