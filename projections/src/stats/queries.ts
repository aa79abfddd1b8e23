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
  DAY_MS,
  STATS,
  STATS_GLOBAL_ID,
  STATS_LOGINS,
  STATS_MEMBERS,
  momentAt,
  topCreator,
  topVideo,
  utcDay,
  type StatsDoc,
  type StatsLoginDoc,
  type StatsMemberDoc,
  type StatsMomentDoc,
} from './stats-projector';

/** the product business constants: new users over 30 days, recent logins over 7 days */
export const STATS_WINDOWS = { newUsersDays: 30, recentLoginsDays: 7 } as const;

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Where the figures come from: the live documents (now) or the moment in force at a date. */
interface StatsSource {
  counters(): Promise<StatsDoc>;
  tops(): Promise<Pick<StatsMomentDoc, 'top_creator' | 'top_video'>>;
  /** members registered in [since, until] */
  newUsers(since: string, until: string): Promise<number>;
  /** members with a login in [since, until] */
  recentLogins(since: string, until: string): Promise<number>;
}

/**
 * The administrators' statistics now, from the stats projector's live documents; time windows end
 * at `ref` (now). Every figure is a counter or an indexed query.
 */
export function statsQueries(read: ReadStore, ref: Date) {
  const stats = read.collection<StatsDoc>(STATS);
  const members = read.collection<StatsMemberDoc>(STATS_MEMBERS);
  return figures(read, ref, {
    counters: async () => (await stats.findOne({ _id: STATS_GLOBAL_ID })) ?? { _id: STATS_GLOBAL_ID },
    async tops() {
      const [creator, video] = [await topCreator(read), await topVideo(read)];
      return {
        top_creator: creator && { email: creator.email, public_videos: creator.public_videos },
        top_video: video && { title: video.title, views: video.views },
      };
    },
    newUsers: (since, until) => members.countDocuments({ created_at: { $gte: since, $lte: until } }),
    recentLogins: (since, until) => members.countDocuments({ last_login_at: { $gte: since, $lte: until } }),
  });
}

/**
 * The statistics as they were at `asOf` (counting the events whose time is at or before it): the
 * moment in force then (one indexed read) and the windows' queries ending at `asOf`; the logins of
 * the last 7 days are the members with a login day in the window (the window's first and last days
 * by their first and last login times).
 */
export function statsQueriesAsOf(read: ReadStore, asOf: Date) {
  const until = asOf.toISOString();
  let moment: Promise<StatsMomentDoc | null> | undefined;
  const inForce = () => (moment ??= momentAt(read, until));
  const members = read.collection<StatsMemberDoc>(STATS_MEMBERS);
  return figures(read, asOf, {
    async counters() {
      const m = await inForce();
      return {
        _id: STATS_GLOBAL_ID,
        ...(m?.counters ?? {}),
        ...(m?.first_video_at ? { first_video_at: m.first_video_at } : {}),
      };
    },
    async tops() {
      const m = await inForce();
      return { top_creator: m?.top_creator ?? null, top_video: m?.top_video ?? null };
    },
    // counted as of their clock, which is never before their own time: a range on it bounds the reads
    async newUsers(since, until) {
      const counted = await members.find(
        { counted_at: { $gte: since, $lte: until } },
        { projection: { created_at: 1 } },
      );
      return counted.filter((m) => m.created_at >= since).length;
    },
    async recentLogins(since, until) {
      const logins = await read
        .collection<StatsLoginDoc>(STATS_LOGINS)
        .find({ clock: { $gte: since, $lte: until } }, { projection: { user_id: 1, at: 1 } });
      return new Set(logins.filter((l) => l.at >= since).map((l) => l.user_id)).size;
    },
  });
}

/**
 * Whether the moments answer "as of" exactly as a replay keeping the events stamped at or before
 * the date would: yes unless an event was stamped before one logged earlier (never when the log
 * stamps its events as it appends them; a history written with back-dated times, as tests do).
 */
export async function statsMomentsExact(read: ReadStore): Promise<boolean> {
  const c = await read.collection<StatsDoc>(STATS).findOne({ _id: STATS_GLOBAL_ID });
  return c?.clock_went_back !== true;
}

function figures(read: ReadStore, ref: Date, source: StatsSource) {
  const { counters } = source;
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
      const { top_creator: creator, top_video: video } = await source.tops();
      const total = n(c.videos_total);
      // calendar days (UTC) from the first upload's day to ref's day, both counted
      const days = c.first_video_at ? Math.max(1, utcDay(ref.getTime()) - utcDay(Date.parse(c.first_video_at)) + 1) : 1;
      return {
        top_creator: creator ? { user_email: creator.email, video_count: creator.public_videos } : null,
        top_video: video ? { title: video.title, views: video.views } : null,
        total_reports: n(c.reports),
        public_videos: n(c.videos_public),
        deleted_videos: n(c.videos_deleted),
        avg_videos_per_day: total === 0 ? 0 : round2(total / days),
      };
    },

    async users(): Promise<UsersStats> {
      const c = await counters();
      const [newUsers, recentLogins] = await Promise.all([
        source.newUsers(since(STATS_WINDOWS.newUsersDays), until),
        source.recentLogins(since(STATS_WINDOWS.recentLoginsDays), until),
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

export type StatsQueries = ReturnType<typeof figures>;
export const STATS_KINDS = ['general', 'advanced', 'users', 'videos', 'messages', 'gifts', 'coins'] as const;
export type StatsKind = (typeof STATS_KINDS)[number];
