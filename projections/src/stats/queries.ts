import type {
  AdvancedStats,
  CoinsStats,
  GeneralStats,
  GiftsStats,
  MessagesStats,
  UsersStats,
  VideosStats,
} from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import {
  STATS,
  STATS_GLOBAL_ID,
  STATS_MEMBERS,
  STATS_VIDEOS,
  type StatsDoc,
  type StatsMemberDoc,
  type StatsVideoDoc,
} from './stats-projector';

const DAY_MS = 86_400_000;
/** the product business constants: new users over 30 days, recent logins over 7 days */
export const STATS_WINDOWS = { newUsersDays: 30, recentLoginsDays: 7 } as const;

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
const round2 = (x: number) => Math.round(x * 100) / 100;
const utcDay = (t: number) => Math.floor(t / DAY_MS);

/**
 * The administrators' statistics from the stats projector's documents, at `ref` (now, or the date
 * of an "as of" replay): time windows end at `ref`. Every figure is a counter or an indexed query.
 */
export function statsQueries(read: ReadStore, ref: Date) {
  const stats = read.collection<StatsDoc>(STATS);
  const members = read.collection<StatsMemberDoc>(STATS_MEMBERS);
  const videos = read.collection<StatsVideoDoc>(STATS_VIDEOS);
  const counters = async (): Promise<StatsDoc> =>
    (await stats.findOne({ _id: STATS_GLOBAL_ID })) ?? { _id: STATS_GLOBAL_ID };
  const since = (days: number) => new Date(ref.getTime() - days * DAY_MS).toISOString();
  const until = ref.toISOString();

  return {
    async general(): Promise<GeneralStats> {
      const c = await counters();
      return {
        users: n(c.users),
        videos: n(c.videos_total),
        gifts: n(c.gifts_sent),
        coins: n(c.coins_in_balances),
        messages: n(c.comments),
      };
    },

    async advanced(): Promise<AdvancedStats> {
      const c = await counters();
      const [creator] = await members.find(
        { public_videos: { $gt: 0 } },
        { sort: { public_videos: -1, created_at: 1 }, limit: 1 },
      );
      const [video] = await videos.find({ category: 'public' }, { sort: { views: -1, _id: 1 }, limit: 1 });
      const total = n(c.videos_total);
      // calendar days (UTC) from the first upload's day to ref's day, both counted
      const days = c.first_video_at ? Math.max(1, utcDay(ref.getTime()) - utcDay(Date.parse(c.first_video_at)) + 1) : 1;
      return {
        top_creator: creator ? { user_email: creator.email, video_count: creator.public_videos } : null,
        top_video: video ? { title: video.title, views: n(video.views) } : null,
        total_reports: n(c.reports),
        public_videos: n(c.videos_public),
        deleted_videos: n(c.videos_deleted),
        avg_videos_per_day: total === 0 ? 0 : round2(total / days),
      };
    },

    async users(): Promise<UsersStats> {
      const c = await counters();
      const [newUsers, recentLogins] = await Promise.all([
        members.countDocuments({ created_at: { $gte: since(STATS_WINDOWS.newUsersDays), $lte: until } }),
        members.countDocuments({ last_login_at: { $gte: since(STATS_WINDOWS.recentLoginsDays), $lte: until } }),
      ]);
      return {
        total_users: n(c.users),
        validated_users: n(c.validated_users),
        new_users_30d: newUsers,
        recent_logins_7d: recentLogins,
      };
    },

    async videos(): Promise<VideosStats> {
      const c = await counters();
      return {
        total_videos: n(c.videos_total),
        public_videos: n(c.videos_public),
        hidden_videos: n(c.videos_hidden),
        deleted_videos: n(c.videos_deleted),
        rejected_videos: n(c.videos_rejected),
      };
    },

    async messages(): Promise<MessagesStats> {
      const c = await counters();
      return { total_messages: n(c.comments), private_messages: n(c.private_messages) };
    },

    async gifts(): Promise<GiftsStats> {
      const c = await counters();
      return { gifts_sent: n(c.gifts_sent), gifts_catalog: n(c.gifts_catalog) };
    },

    async coins(): Promise<CoinsStats> {
      const c = await counters();
      return {
        coins_bought: n(c.coins_bought),
        coins_added: n(c.coins_added),
        coins_in_balances: n(c.coins_in_balances),
        coins_in_unclaimed_gifts: n(c.coins_in_unclaimed_gifts),
        coins_in_transit: n(c.coins_in_transit),
        coins_withdrawn: n(c.coins_withdrawn),
        fees: n(c.fees),
        purchases: n(c.purchases),
      };
    },
  };
}

export type StatsQueries = ReturnType<typeof statsQueries>;
export const STATS_KINDS = ['general', 'advanced', 'users', 'videos', 'messages', 'gifts', 'coins'] as const;
export type StatsKind = (typeof STATS_KINDS)[number];
