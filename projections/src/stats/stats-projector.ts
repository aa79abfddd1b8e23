import {
  ACCOUNTS,
  DELETED_MEMBER_LABEL,
  WALLET_EVENT_TYPES,
  isWalletEvent,
  type AppEvent,
  type WalletEventType,
  netChanges,
  parseUserAccount,
  type LogPosition,
  positionKey,
} from '@evo/domain';
import type { Doc, ReadStore, Update } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { MEMBER_GONE_EVENTS } from '../runtime/member-gone';
import { applyOnce, insertOnce } from '../runtime/write-once';

/** one document (`_id: 'global'`) of counters */
export const STATS = 'stats';
/** one document per member: registration, last login, public videos (windows and top creator) */
export const STATS_MEMBERS = 'stats_members';
/** one document per video: its category and views (top video) */
export const STATS_VIDEOS = 'stats_videos';
export const STATS_GLOBAL_ID = 'global';
/**
 * One document per moment (`_id`: the event time, ISO) at which a figure changed: every figure of
 * the statistics as they stood after the events of that moment, so that "as of" a date is the last
 * document at or before it (one indexed read).
 */
export const STATS_MOMENTS = 'stats_moments';
/** One document per login (its time and the log's clock then): "logins in the last 7 days" as of a date. */
export const STATS_LOGINS = 'stats_logins';

/** What a video counts as: public (members see it), hidden, deleted, or rejected by processing. */
export type VideoCategory = 'public' | 'hidden' | 'deleted' | 'rejected';

export interface StatsDoc extends Doc {
  _id: string;
  users?: number;
  /** members who logged in at least once */
  validated_users?: number;
  videos_total?: number;
  videos_public?: number;
  videos_hidden?: number;
  videos_deleted?: number;
  videos_rejected?: number;
  /** time of the first upload (average per day) */
  first_video_at?: string;
  reports?: number;
  /** comments: the product's public messages */
  comments?: number;
  private_messages?: number;
  gifts_sent?: number;
  gifts_catalog?: number;
  /** coins bought with packs (external:payments) */
  coins_bought?: number;
  /** coins given without payment (external:credits) */
  coins_added?: number;
  /** Σ user:<id>:balance, user:<id>:bonus and user:<id>:earnings */
  coins_in_balances?: number;
  /** Σ user:<id>:gifts */
  coins_in_unclaimed_gifts?: number;
  /** transit:gifts */
  coins_in_transit?: number;
  /** external:withdrawals */
  coins_withdrawn?: number;
  /** platform:fees */
  fees?: number;
  /** number of pack purchases */
  purchases?: number;
  /** the last event whose moment was recorded (see recordMoment) */
  _pos_moment?: string;
  /** the moment in force at the clock: the last one recorded (see recordMoment) */
  moment_id?: string;
  /** the top creator now, kept event by event (see Tops); absent: to be queried */
  top_creator?: TopCreator | null;
  /** the top video now, kept event by event (see Tops); absent: to be queried */
  top_video?: TopVideo | null;
  /** the latest event time seen so far: the time of the moments (see recordMoment) */
  clock?: string;
  /** set when an event was stamped before the clock: the moments then follow the log, not the times */
  clock_went_back?: boolean;
  _pos?: string;
}

export interface StatsMemberDoc extends Doc {
  _id: string;
  email: string;
  created_at: string;
  /** the log's clock at the registration (see recordMoment): the member counts as of this time */
  counted_at: string;
  last_login_at: string | null;
  validated: boolean;
  public_videos: number;
}

export interface StatsVideoDoc extends Doc {
  _id: number;
  owner_id: string;
  title: string;
  views: number;
  visibility: string;
  rejected: boolean;
  category: VideoCategory;
  created_at: string;
}

/** The figures that are not time windows, as they stood at a moment. */
export interface StatsMomentDoc extends Doc {
  /** the moment (an event's `metadata.at`) */
  _id: string;
  counters: Record<Counter, number>;
  first_video_at: string | null;
  top_creator: { email: string; public_videos: number } | null;
  top_video: { title: string; views: number } | null;
}

export interface StatsLoginDoc extends Doc {
  /** the event's position key */
  _id: string;
  user_id: string;
  /** the login's time */
  at: string;
  /** the log's clock then (see recordMoment): the login counts as of this time */
  clock: string;
}

export const DAY_MS = 86_400_000;
export const utcDay = (t: number) => Math.floor(t / DAY_MS);

export const videoCategory = (v: Pick<StatsVideoDoc, 'visibility' | 'rejected'>): VideoCategory =>
  v.visibility === 'masquée' ? 'hidden' : v.visibility === 'supprimée' ? 'deleted' : v.rejected ? 'rejected' : 'public';

export type Counter = Exclude<
  keyof StatsDoc,
  | '_id'
  | 'first_video_at'
  | '_pos'
  | '_pos_moment'
  | 'moment_id'
  | 'top_creator'
  | 'top_video'
  | 'clock'
  | 'clock_went_back'
>;
/** every counter of the global document, in a fixed order (moments compare field by field) */
export const COUNTERS: readonly Counter[] = [
  'users',
  'validated_users',
  'videos_total',
  'videos_public',
  'videos_hidden',
  'videos_deleted',
  'videos_rejected',
  'reports',
  'comments',
  'private_messages',
  'gifts_sent',
  'gifts_catalog',
  'coins_bought',
  'coins_added',
  'coins_in_balances',
  'coins_in_unclaimed_gifts',
  'coins_in_transit',
  'coins_withdrawn',
  'fees',
  'purchases',
];

/** The top creator as the global document keeps it: who, and what ranks them. */
export interface TopCreator {
  _id: string;
  email: string;
  public_videos: number;
  created_at: string;
}

/** The top video as the global document keeps it: which, whose, and what ranks it. */
export interface TopVideo {
  _id: number;
  owner_id: string;
  title: string;
  views: number;
}

/** the top creator (most public videos, the earlier member on a tie, then the lower id) in the live documents */
export async function topCreator(store: ReadStore): Promise<TopCreator | null> {
  const [m] = await store
    .collection<StatsMemberDoc>(STATS_MEMBERS)
    .find({ public_videos: { $gt: 0 } }, { sort: { public_videos: -1, created_at: 1, _id: 1 }, limit: 1 });
  return m ? creatorOf(m) : null;
}

/** the top video (most views among public videos, the lower id on a tie) in the live documents */
export async function topVideo(store: ReadStore): Promise<TopVideo | null> {
  const [v] = await store
    .collection<StatsVideoDoc>(STATS_VIDEOS)
    .find({ category: 'public' }, { sort: { views: -1, _id: 1 }, limit: 1 });
  return v ? videoOf(v) : null;
}

const creatorOf = (m: StatsMemberDoc): TopCreator => ({
  _id: m._id,
  email: m.email,
  public_videos: m.public_videos,
  created_at: m.created_at,
});
const videoOf = (v: StatsVideoDoc): TopVideo => ({
  _id: v._id,
  owner_id: v.owner_id,
  title: v.title,
  views: typeof v.views === 'number' ? v.views : 0,
});

const compare = <V extends string | number>(a: V, b: V) => (a < b ? -1 : a > b ? 1 : 0);
/** a ranks before b in topCreator's order */
const creatorFirst = (a: TopCreator, b: TopCreator) =>
  (compare(b.public_videos, a.public_videos) || compare(a.created_at, b.created_at) || compare(a._id, b._id)) < 0;
/** a ranks before b in topVideo's order */
const videoFirst = (a: TopVideo, b: TopVideo) => (compare(b.views, a.views) || compare(a._id, b._id)) < 0;

/**
 * The tops during one event, from those the global document keeps (undefined: not known, queried
 * at the end). A member or video the event changed is offered with its document as it now is and
 * whether its rank can have gone down: one that can only have gone up (or stayed) is the top if it
 * ranks first; when the top itself may have gone down (or left: a hidden video, a forgotten member),
 * the top is queried again. The only queries of the tops: when one leaves or drops.
 */
class Tops {
  constructor(
    public creator: TopCreator | null | undefined,
    public video: TopVideo | null | undefined,
  ) {}

  member(id: string, doc: StatsMemberDoc | null, mayHaveDropped: boolean): void {
    if (this.creator === undefined) return;
    const isTop = this.creator !== null && this.creator._id === id;
    if (!doc || !(doc.public_videos > 0) || (isTop && mayHaveDropped)) {
      if (isTop) this.creator = undefined;
      return;
    }
    const candidate = creatorOf(doc);
    if (isTop || this.creator === null || creatorFirst(candidate, this.creator)) this.creator = candidate;
  }

  videoChanged(id: number, doc: StatsVideoDoc | null, mayHaveDropped: boolean): void {
    if (this.video === undefined) return;
    const isTop = this.video !== null && this.video._id === id;
    if (!doc || doc.category !== 'public' || (isTop && mayHaveDropped)) {
      if (isTop) this.video = undefined;
      return;
    }
    const candidate = videoOf(doc);
    if (isTop || this.video === null || videoFirst(candidate, this.video)) this.video = candidate;
  }

  /** a member leaves: their place as top creator, and their video's as top video */
  forget(memberId: string): void {
    if (this.creator?._id === memberId) this.creator = undefined;
    if (this.video?.owner_id === memberId) this.video = undefined;
  }

  async known(store: ReadStore): Promise<{ creator: TopCreator | null; video: TopVideo | null }> {
    return {
      creator: this.creator === undefined ? await topCreator(store) : this.creator,
      video: this.video === undefined ? await topVideo(store) : this.video,
    };
  }
}

/** the moment document in force at `at` (the last at or before it), if any */
export async function momentAt(store: ReadStore, at: string): Promise<StatsMomentDoc | null> {
  const [m] = await store
    .collection<StatsMomentDoc>(STATS_MOMENTS)
    .find({ _id: { $lte: at } }, { sort: { _id: -1 }, limit: 1 });
  return m ?? null;
}

const momentFigures = (m: Pick<StatsMomentDoc, 'counters' | 'first_video_at' | 'top_creator' | 'top_video'>) =>
  JSON.stringify([COUNTERS.map((k) => m.counters[k] ?? 0), m.first_video_at, m.top_creator, m.top_video]);

/**
 * After an event's writes: the figures as they now stand, written as the moment of the log's clock
 * (the latest event time seen so far, so that moments follow the log: an event stamped earlier
 * than one before it counts from the clock's time) unless the moment in force then already says
 * the same (a view of a video that is not the top changes nothing). The moment in force at the
 * clock is the last one recorded (the clock never goes back): the global document names it, and
 * keeps the tops as they now stand, the clock and the last event whose moment was recorded (its
 * own guard, set last, with the rest): a redelivered event is skipped, since the documents may then
 * hold later events; a crash before that mark leaves the documents as this event made them, and
 * the redelivery computes the same figures (the tops it offers are as they now are, see Tops).
 */
async function recordMoment(
  store: ReadStore,
  position: LogPosition,
  at: string,
  clock: string,
  changed: boolean,
  tops: Tops,
) {
  const stats = store.collection<StatsDoc>(STATS);
  const c = (await stats.findOne({ _id: STATS_GLOBAL_ID })) ?? { _id: STATS_GLOBAL_ID };
  const { creator, video } = await tops.known(store);
  let momentId = c.moment_id;
  if (changed) {
    const now = {
      counters: Object.fromEntries(COUNTERS.map((k) => [k, typeof c[k] === 'number' ? c[k] : 0])) as Record<
        Counter,
        number
      >,
      first_video_at: c.first_video_at ?? null,
      top_creator: creator && { email: creator.email, public_videos: creator.public_videos },
      top_video: video && { title: video.title, views: video.views },
    };
    const moments = store.collection<StatsMomentDoc>(STATS_MOMENTS);
    const before = momentId !== undefined ? await moments.findOne({ _id: momentId }) : await momentAt(store, clock);
    if (!before || momentFigures(before) !== momentFigures(now)) {
      // a moment later than the last one recorded is new (or this event's own, on a redelivery): one insert
      if (before?._id === clock) await applyOnce(moments, clock, position, { $set: now });
      else await insertOnce(moments, { _id: clock, ...now, _pos: positionKey(position) });
      momentId = clock;
    }
  }
  const wentBack = c.clock_went_back === true || at < clock;
  await applyOnce(
    stats,
    STATS_GLOBAL_ID,
    position,
    {
      $set: {
        clock,
        top_creator: creator,
        top_video: video,
        ...(momentId !== undefined ? { moment_id: momentId } : {}),
        ...(wentBack ? { clock_went_back: true } : {}),
      },
    },
    { upsert: true, guard: 'moment' },
  );
}

/** Guarded change of the counters: at most one per event, so a redelivery never counts twice. */
async function bump(
  store: ReadStore,
  position: LogPosition,
  inc: Partial<Record<Counter, number>>,
  extra: Update = {},
) {
  const nonZero = Object.fromEntries(Object.entries(inc).filter(([, n]) => n !== 0));
  if (Object.keys(nonZero).length === 0 && Object.keys(extra).length === 0) return;
  const update: Update = { ...extra, ...(Object.keys(nonZero).length ? { $inc: nonZero } : {}) };
  await applyOnce(store.collection<StatsDoc>(STATS), STATS_GLOBAL_ID, position, update, { upsert: true });
}

/** The coin counters an event's postings move (double entry: each posting moves coins between two accounts). */
function coinCounters(postings: Parameters<typeof netChanges>[0]): Partial<Record<Counter, number>> {
  const inc: Partial<Record<Counter, number>> = {};
  const add = (k: Counter, n: number) => (inc[k] = (inc[k] ?? 0) + n);
  for (const [account, delta] of netChanges(postings)) {
    const user = parseUserAccount(account);
    // members' balances: what they may spend, bought, bonus or earned
    if (user) add(user.kind === 'gifts' ? 'coins_in_unclaimed_gifts' : 'coins_in_balances', delta);
    else if (account === ACCOUNTS.transit) add('coins_in_transit', delta);
    else if (account === ACCOUNTS.fees) add('fees', delta);
    else if (account === ACCOUNTS.withdrawals) add('coins_withdrawn', delta);
    // the external sources go negative by what they issued
    else if (account === ACCOUNTS.payments) add('coins_bought', -delta);
    else if (account === ACCOUNTS.credits) add('coins_added', -delta);
  }
  return inc;
}

/**
 * A video changes category (rejected, deleted, hidden, public again): the counters and its owner's
 * public videos follow. As in the video-counters projector, the counters are written BEFORE the video's
 * own document, from the document as it was, so a redelivery after a crash in between recomputes
 * the same change and the guards skip what was applied.
 */
async function moveVideo(
  store: ReadStore,
  position: LogPosition,
  videoId: number,
  patch: Partial<Pick<StatsVideoDoc, 'visibility' | 'rejected'>>,
  tops: Tops,
) {
  const videos = store.collection<StatsVideoDoc>(STATS_VIDEOS);
  const members = store.collection<StatsMemberDoc>(STATS_MEMBERS);
  const before = await videos.findOne({ _id: videoId });
  if (!before) return;
  const after = { ...before, ...patch };
  const from = before.category;
  const to = videoCategory(after);
  if (from !== to) {
    await bump(store, position, { [`videos_${from}`]: -1, [`videos_${to}`]: 1 } as Partial<Record<Counter, number>>);
    if (from === 'public' || to === 'public') {
      await applyOnce(store.collection<StatsMemberDoc>(STATS_MEMBERS), before.owner_id, position, {
        $inc: { public_videos: to === 'public' ? 1 : -1 },
      });
    }
  }
  await applyOnce(videos, videoId, position, {
    $set: { visibility: after.visibility, rejected: after.rejected, category: to },
  });
  // public now: it and its owner can only have gone up (or stayed, on a redelivery); else down
  const dropped = to !== 'public';
  tops.member(before.owner_id, await members.findOne({ _id: before.owner_id }), dropped);
  tops.videoChanged(videoId, await videos.findOne({ _id: videoId }), dropped);
}

/**
 * The administrators' statistics (the product entities, "Stats objects"): counters kept event by event
 * and the few per-member and per-video facts the time windows and the tops need; after each event,
 * the figures of its moment (`stats_moments`) and a member's logins per day (`stats_login_days`),
 * so that the figures "as of" a date are queries too. Queries never scan the log.
 */
export const statsProjector: Projector = {
  name: 'stats',
  collections: [STATS, STATS_MEMBERS, STATS_VIDEOS, STATS_MOMENTS, STATS_LOGINS],
  eventTypes: [
    ...(WALLET_EVENT_TYPES as ReadonlySet<WalletEventType>),
    'UserRegistered',
    'UserLoggedIn',
    'VideoUploaded',
    'VideoRejected',
    'VideoDeleted',
    'VideoVisibilityChanged',
    'VideoViewed',
    'VideoReported',
    'CommentPosted',
    'MessageSent',
    'GiftAdded',
    'GiftRemoved',
    ...MEMBER_GONE_EVENTS,
  ],
  indexes: {
    [STATS_MEMBERS]: [
      { key: { created_at: 1 } },
      { key: { counted_at: 1 } },
      { key: { last_login_at: 1 } },
      { key: { public_videos: -1, created_at: 1, _id: 1 } },
    ],
    [STATS_VIDEOS]: [{ key: { category: 1, views: -1 } }, { key: { owner_id: 1 } }],
    [STATS_LOGINS]: [{ key: { clock: 1 } }],
  },
  async project(event, store) {
    // an event of another type is not this projector's (the runner routes only its own; nothing read)
    if (!(statsProjector.eventTypes as readonly string[]).includes(event.type)) return;
    const c = (await store.collection<StatsDoc>(STATS).findOne({ _id: STATS_GLOBAL_ID })) ?? { _id: STATS_GLOBAL_ID };
    // its moment recorded (the event's last write): every write of the event was made
    if (c._pos_moment !== undefined && c._pos_moment >= positionKey(event.position)) return;
    const at = event.metadata.at;
    const clock = c.clock !== undefined && c.clock > at ? c.clock : at;
    const tops = new Tops(c.top_creator, c.top_video);
    const changed = await projectFigures(event, store, clock, tops);
    await recordMoment(store, event.position, at, clock, changed, tops);
  },
};

/**
 * A deleted member leaves the statistics: one member less (and one validated less), their own and
 * their videos' documents go, and the figures recorded at past moments no longer name them (top
 * creator, top video). The counts of what they did (comments, messages, coins) stay: numbers, no one's.
 */
async function forgetMember(store: ReadStore, memberId: string, pos: LogPosition, tops: Tops): Promise<boolean> {
  // even on a redelivery that finds them gone: the tops kept may still name them
  tops.forget(memberId);
  const members = store.collection<StatsMemberDoc>(STATS_MEMBERS);
  const videos = store.collection<StatsVideoDoc>(STATS_VIDEOS);
  const member = await members.findOne({ _id: memberId });
  const theirVideos = await videos.find({ owner_id: memberId }, { projection: { title: 1 } });
  if (!member && theirVideos.length === 0) return false;
  const titles = new Set(theirVideos.map((v) => v.title));
  const moments = store.collection<StatsMomentDoc>(STATS_MOMENTS);
  for (const m of await moments.find({}, { projection: { top_creator: 1, top_video: 1 } })) {
    const creator = member && m.top_creator?.email === member.email;
    const video = m.top_video !== null && titles.has(m.top_video.title);
    if (!creator && !video) continue;
    await moments.updateOne(
      { _id: m._id },
      {
        $set: {
          ...(creator ? { top_creator: { ...m.top_creator!, email: DELETED_MEMBER_LABEL } } : {}),
          ...(video ? { top_video: { ...m.top_video!, title: DELETED_MEMBER_LABEL } } : {}),
        },
      },
    );
  }
  if (member) await bump(store, pos, { users: -1, validated_users: member.validated ? -1 : 0 });
  await members.deleteOne({ _id: memberId });
  await videos.deleteMany({ owner_id: memberId });
  return true;
}

/** The events whose whole effect is one counter moved, and by how much. */
const COUNTED_ONLY: Partial<Record<AppEvent['type'], Partial<Record<Counter, number>>>> = {
  VideoReported: { reports: 1 },
  CommentPosted: { comments: 1 },
  MessageSent: { private_messages: 1 },
  GiftAdded: { gifts_catalog: 1 },
  GiftRemoved: { gifts_catalog: -1 },
};

/** The event's writes to the counters, members and videos; false when it can change no figure. */
async function projectFigures(
  event: Parameters<Projector['project']>[0],
  store: ReadStore,
  clock: string,
  tops: Tops,
): Promise<boolean> {
  const members = store.collection<StatsMemberDoc>(STATS_MEMBERS);
  const videos = store.collection<StatsVideoDoc>(STATS_VIDEOS);
  const at = event.metadata.at;
  const pos = event.position;
  if (isWalletEvent(event)) {
    const inc = coinCounters(event.data.postings);
    if (event.type === 'GiftSent') inc.gifts_sent = 1;
    if (event.type === 'CoinsPurchased') inc.purchases = 1;
    await bump(store, pos, inc);
    return true;
  }
  switch (event.type) {
    case 'UserRegistered':
      await bump(store, pos, { users: 1 });
      await applyOnce(
        members,
        event.data.userId,
        pos,
        {
          $set: {
            email: event.data.email,
            created_at: at,
            counted_at: clock,
            last_login_at: null,
            validated: false,
            public_videos: 0,
          },
        },
        { upsert: true },
      );
      // no public video: not the top creator (any more)
      tops.member(event.data.userId, await members.findOne({ _id: event.data.userId }), true);
      return true;
    case 'UserLoggedIn': {
      const before = await members.findOne({ _id: event.data.userId });
      if (!before) return false;
      if (!before.validated) await bump(store, pos, { validated_users: 1 });
      await applyOnce(members, event.data.userId, pos, { $set: { validated: true }, $max: { last_login_at: at } });
      await insertOnce(store.collection<StatsLoginDoc>(STATS_LOGINS), {
        _id: positionKey(pos),
        user_id: event.data.userId,
        at,
        clock,
      });
      return true;
    }
    case 'VideoUploaded': {
      const d = event.data;
      await bump(store, pos, { videos_total: 1, videos_public: 1 }, { $min: { first_video_at: at } });
      await applyOnce(members, d.ownerId, pos, { $inc: { public_videos: 1 } });
      await applyOnce(
        videos,
        d.videoId,
        pos,
        {
          $set: {
            owner_id: d.ownerId,
            title: d.title,
            visibility: 'publique',
            rejected: false,
            category: 'public',
            created_at: at,
          },
          $setOnInsert: { views: 0 },
        },
        { upsert: true },
      );
      // one more public video, the video public: both can only have gone up
      tops.member(d.ownerId, await members.findOne({ _id: d.ownerId }), false);
      tops.videoChanged(d.videoId, await videos.findOne({ _id: d.videoId }), false);
      return true;
    }
    case 'VideoRejected':
      await moveVideo(store, pos, event.data.videoId, { rejected: true }, tops);
      return true;
    case 'VideoDeleted':
      await moveVideo(store, pos, event.data.videoId, { visibility: 'supprimée' }, tops);
      return true;
    case 'VideoVisibilityChanged':
      await moveVideo(store, pos, event.data.videoId, { visibility: event.data.status }, tops);
      return true;
    case 'VideoViewed': {
      await applyOnce(videos, event.data.videoId, pos, { $inc: { views: 1 } });
      const video = await videos.findOne({ _id: event.data.videoId });
      tops.videoChanged(event.data.videoId, video, false);
      // views of a video members do not see change no top
      return video?.category === 'public';
    }
    case 'AccountDeleted':
    case 'MemberErased':
      return forgetMember(store, event.data.userId, pos, tops);
    default: {
      const counted = COUNTED_ONLY[event.type];
      if (!counted) return false;
      await bump(store, pos, counted);
      return true;
    }
  }
}
