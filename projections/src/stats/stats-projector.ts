import {
  ACCOUNTS,
  WALLET_EVENT_TYPES,
  isWalletEvent,
  type WalletEventType,
  netChanges,
  parseUserAccount,
  type LogPosition,
} from '@evo/domain';
import type { Doc, ReadStore, Update } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';

/** one document (`_id: 'global'`) of counters */
export const STATS = 'stats';
/** one document per member: registration, last login, public videos (windows and top creator) */
export const STATS_MEMBERS = 'stats_members';
/** one document per video: its category and views (top video) */
export const STATS_VIDEOS = 'stats_videos';
export const STATS_GLOBAL_ID = 'global';

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
}

export interface StatsMemberDoc extends Doc {
  _id: string;
  email: string;
  created_at: string;
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

export const videoCategory = (v: Pick<StatsVideoDoc, 'visibility' | 'rejected'>): VideoCategory =>
  v.visibility === 'masquée' ? 'hidden' : v.visibility === 'supprimée' ? 'deleted' : v.rejected ? 'rejected' : 'public';

type Counter = Exclude<keyof StatsDoc, '_id' | 'first_video_at'>;

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
 * public videos follow. Like `videoVisibilityChanged`, the counters are written BEFORE the video's
 * own document, from the document as it was, so a redelivery after a crash in between recomputes
 * the same change and the guards skip what was applied.
 */
async function moveVideo(
  store: ReadStore,
  position: LogPosition,
  videoId: number,
  patch: Partial<Pick<StatsVideoDoc, 'visibility' | 'rejected'>>,
) {
  const videos = store.collection<StatsVideoDoc>(STATS_VIDEOS);
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
}

/**
 * The administrators' statistics (the product entities, "Stats objects"): counters kept event by event
 * and the few per-member and per-video facts the time windows and the tops need. Queries never
 * scan the log; a figure "as of" a date replays the log up to it through this same projector
 * (see `statsAsOf`).
 */
export const statsProjector: Projector = {
  name: 'stats',
  collections: [STATS, STATS_MEMBERS, STATS_VIDEOS],
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
  ],
  indexes: {
    [STATS_MEMBERS]: [
      { key: { created_at: 1 } },
      { key: { last_login_at: 1 } },
      { key: { public_videos: -1, created_at: 1 } },
    ],
    [STATS_VIDEOS]: [{ key: { category: 1, views: -1 } }],
  },
  async project(event, store) {
    const members = store.collection<StatsMemberDoc>(STATS_MEMBERS);
    const videos = store.collection<StatsVideoDoc>(STATS_VIDEOS);
    const at = event.metadata.at;
    const pos = event.position;
    if (isWalletEvent(event)) {
      const inc = coinCounters(event.data.postings);
      if (event.type === 'GiftSent') inc.gifts_sent = 1;
      if (event.type === 'CoinsPurchased') inc.purchases = 1;
      await bump(store, pos, inc);
      return;
    }
    switch (event.type) {
      case 'UserRegistered':
        await bump(store, pos, { users: 1 });
        await applyOnce(
          members,
          event.data.userId,
          pos,
          {
            $set: { email: event.data.email, created_at: at, last_login_at: null, validated: false, public_videos: 0 },
          },
          { upsert: true },
        );
        return;
      case 'UserLoggedIn': {
        const before = await members.findOne({ _id: event.data.userId });
        if (!before) return;
        if (!before.validated) await bump(store, pos, { validated_users: 1 });
        await applyOnce(members, event.data.userId, pos, { $set: { validated: true }, $max: { last_login_at: at } });
        return;
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
        return;
      }
      case 'VideoRejected':
        await moveVideo(store, pos, event.data.videoId, { rejected: true });
        return;
      case 'VideoDeleted':
        await moveVideo(store, pos, event.data.videoId, { visibility: 'supprimée' });
        return;
      case 'VideoVisibilityChanged':
        await moveVideo(store, pos, event.data.videoId, { visibility: event.data.status });
        return;
      case 'VideoViewed':
        await applyOnce(videos, event.data.videoId, pos, { $inc: { views: 1 } });
        return;
      case 'VideoReported':
        await bump(store, pos, { reports: 1 });
        return;
      case 'CommentPosted':
        await bump(store, pos, { comments: 1 });
        return;
      case 'MessageSent':
        await bump(store, pos, { private_messages: 1 });
        return;
      case 'GiftAdded':
        await bump(store, pos, { gifts_catalog: 1 });
        return;
      case 'GiftRemoved':
        await bump(store, pos, { gifts_catalog: -1 });
        return;
      default:
        return;
    }
  },
};
