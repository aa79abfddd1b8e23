import type { LogPosition } from '@evo/domain';
import type { Doc, ReadCollection, ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { MEMBER_GONE_EVENTS, goneMember } from '../runtime/member-gone';
import { applyOnce } from '../runtime/write-once';
import { USERS, type UserDoc } from '../identity/users-projector';
import { VIDEOS, isVisibleVideo, type VideoDoc } from '../videos/videos-projector';
import { FOLLOWS, type FollowDoc } from './follows-projector';
import { deleteOnce } from '../runtime/write-once';

/** each member's friends feed, one document per month of the videos' dates (see TimelineDoc) */
export const TIMELINES = 'timelines';
/** the creators whose videos are merged into feeds at read time (one document, HUBS_ID) */
export const TIMELINE_HUBS = 'timeline_hubs';
export const HUBS_ID = 'hubs';
/**
 * A creator with more followers than this is a hub: their videos are not copied into their
 * followers' timelines (one upload would be that many writes) but merged at read time from their
 * own videos. The rule depends only on the current `followers_count`, so live projection, a
 * redelivery and a rebuild put every creator on the same side.
 */
export const FANOUT_MAX_FOLLOWERS = 1000;

/**
 * The visible videos of the non-hub members `follower_id` follows, whose `created_at` starts with
 * `month` (its first 7 characters: the buckets are ordered like the dates), in feed order: newest
 * first, ties by video id. `ids[i]` was created at `ats[i]`.
 */
export interface TimelineDoc extends Doc {
  /** `${follower_id}:${month}` */
  _id: string;
  follower_id: string;
  month: string;
  /** entries in this bucket (the feed locates a page from the counts alone) */
  n: number;
  ids: number[];
  ats: string[];
}

export interface HubsDoc extends Doc {
  _id: typeof HUBS_ID;
  ids: string[];
}

export const timelineBucketId = (followerId: string, month: string) => `${followerId}:${month}`;
export const monthOf = (createdAt: string) => createdAt.slice(0, 7);

/** An entry of a timeline: a video and its date. */
export interface TimelineEntry {
  id: number;
  at: string;
}

/** Feed order: newest first, then the smaller video id (the order of the videos index). */
export const feedOrder = (a: TimelineEntry, b: TimelineEntry) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.id - b.id);

const ID_CHUNK = 64;

async function byIds<T extends Doc>(coll: ReadCollection<T>, ids: ReadonlyArray<T['_id']>): Promise<Map<T['_id'], T>> {
  const out = new Map<T['_id'], T>();
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    for (const d of await coll.find({ _id: { $in: ids.slice(i, i + ID_CHUNK) } })) out.set(d._id, d);
  }
  return out;
}

/** Entries of a bucket with `add` put in place and the ids of `remove` taken out (both optional). */
function edit(
  doc: TimelineDoc | undefined,
  add: readonly TimelineEntry[],
  remove: ReadonlySet<number>,
): TimelineEntry[] | null {
  const ids = doc?.ids ?? [];
  const ats = doc?.ats ?? [];
  const present = new Set(ids);
  const adding = add.filter((e) => !present.has(e.id));
  const removing = ids.some((id) => remove.has(id));
  if (adding.length === 0 && !removing) return null;
  const entries: TimelineEntry[] = [];
  for (let i = 0; i < ids.length; i++) if (!remove.has(ids[i])) entries.push({ id: ids[i], at: ats[i] });
  if (adding.length === 0) return entries;
  // the common case, a new upload, is one entry that goes first
  if (adding.length === 1) {
    const e = adding[0];
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (feedOrder(entries[mid], e) < 0) lo = mid + 1;
      else hi = mid;
    }
    entries.splice(lo, 0, e);
    return entries;
  }
  return [...entries, ...new Map(adding.map((e) => [e.id, e])).values()].sort(feedOrder);
}

/**
 * A deleted member: their own timeline goes, and their videos leave their followers' timelines (the
 * buckets holding them are found by video id: the follows projector, before this one, has already
 * removed the follow edges; the videos projector keeps the bare video documents until MemberErased).
 */
async function forgetTimelines(store: ReadStore, memberId: string, position: LogPosition): Promise<void> {
  const timelines = store.collection<TimelineDoc>(TIMELINES);
  const videos = (
    await store.collection<VideoDoc>(VIDEOS).find({ user_id: memberId }, { projection: { _id: 1, created_at: 1 } })
  ).map(entryOf);
  for (let i = 0; i < videos.length; i += ID_CHUNK) {
    const chunk = videos.slice(i, i + ID_CHUNK);
    const holding = await timelines.find({ ids: { $in: chunk.map((v) => v.id) } }, { projection: { follower_id: 1 } });
    const followers = [...new Set(holding.map((b) => b.follower_id))].filter((f) => f !== memberId);
    await changeTimelines(store, followers, [], chunk, position);
  }
  await timelines.deleteMany({ follower_id: memberId });
  if (await isHub(store, memberId))
    await applyOnce(store.collection<HubsDoc>(TIMELINE_HUBS), HUBS_ID, position, { $pull: { ids: memberId } });
}

/**
 * Changes `followers`' timelines: every video of `add` in, every id of `remove` out. One write per
 * bucket document (guarded by the event's position, so a redelivered event skips the buckets it
 * already wrote); a bucket left empty is deleted.
 */
async function changeTimelines(
  store: ReadStore,
  followers: readonly string[],
  add: readonly TimelineEntry[],
  remove: ReadonlyArray<{ id: number; at: string }>,
  position: LogPosition,
): Promise<void> {
  if (followers.length === 0 || (add.length === 0 && remove.length === 0)) return;
  const timelines = store.collection<TimelineDoc>(TIMELINES);
  const addByMonth = new Map<string, TimelineEntry[]>();
  for (const e of add) addByMonth.set(monthOf(e.at), [...(addByMonth.get(monthOf(e.at)) ?? []), e]);
  const removeByMonth = new Map<string, Set<number>>();
  for (const e of remove) {
    const m = monthOf(e.at);
    if (!removeByMonth.has(m)) removeByMonth.set(m, new Set());
    removeByMonth.get(m)!.add(e.id);
  }
  const months = [...new Set([...addByMonth.keys(), ...removeByMonth.keys()])].sort();
  const none = new Set<number>();
  const bucketIds = followers.flatMap((f) => months.map((m) => timelineBucketId(f, m)));
  const existing = await byIds(timelines, bucketIds);
  for (const follower of followers) {
    for (const month of months) {
      const id = timelineBucketId(follower, month);
      const doc = existing.get(id);
      const entries = edit(doc, addByMonth.get(month) ?? [], removeByMonth.get(month) ?? none);
      if (!entries) continue;
      if (entries.length === 0) {
        await deleteOnce(timelines, id, position);
        continue;
      }
      await applyOnce(
        timelines,
        id,
        position,
        {
          $set: {
            follower_id: follower,
            month,
            n: entries.length,
            ids: entries.map((e) => e.id),
            ats: entries.map((e) => e.at),
          },
        },
        { upsert: true },
      );
    }
  }
}

const followersOf = async (store: ReadStore, creatorId: string): Promise<string[]> =>
  (await store.collection<FollowDoc>(FOLLOWS).find({ followee_id: creatorId }, { projection: { follower_id: 1 } })).map(
    (f) => f.follower_id,
  );

/** every video of `creatorId` (any visibility), with what decides whether feeds show it */
const videosOf = (store: ReadStore, creatorId: string) =>
  store
    .collection<VideoDoc>(VIDEOS)
    .find({ user_id: creatorId }, { projection: { _id: 1, created_at: 1, status: 1, processing: 1 } });

const entryOf = (v: Pick<VideoDoc, '_id' | 'created_at'>): TimelineEntry => ({ id: v._id, at: v.created_at });

async function isHub(store: ReadStore, creatorId: string): Promise<boolean> {
  return (await store.collection<HubsDoc>(TIMELINE_HUBS).findOne({ _id: HUBS_ID }))?.ids.includes(creatorId) ?? false;
}

/**
 * Friends feeds as a read model (fan-out on write): each member's timeline holds the visible
 * videos of whom they follow, so a feed page is one ordered read, whatever the follow count or the
 * platform's size. A new visible video goes into its owner's followers' timelines; a follow brings
 * the followee's visible videos in, an unfollow takes them out; a video hidden, deleted or rejected
 * leaves every timeline, made public again it comes back. Hubs (creators above
 * `fanoutMaxFollowers` followers) are left out of timelines and merged at read time: crossing
 * the threshold moves their videos out of (or into) their followers' timelines, before the hub
 * list says so (a crash in between leaves both, which the feed deduplicates, never neither).
 */
export function createTimelineProjector(options: { fanoutMaxFollowers?: number } = {}): Projector {
  const fanoutMaxFollowers = options.fanoutMaxFollowers ?? FANOUT_MAX_FOLLOWERS;
  return {
    name: 'timeline',
    collections: [TIMELINES, TIMELINE_HUBS],
    eventTypes: [
      'UserFollowed',
      'UserUnfollowed',
      'VideoUploaded',
      'VideoRejected',
      'VideoDeleted',
      'VideoVisibilityChanged',
      ...MEMBER_GONE_EVENTS,
    ],
    indexes: { [TIMELINES]: [{ key: { follower_id: 1, month: -1 } }] },
    async project(event, store) {
      const gone = goneMember(event);
      if (gone) return forgetTimelines(store, gone, event.position);
      switch (event.type) {
        case 'UserFollowed':
        case 'UserUnfollowed': {
          const { followerId, followeeId } = event.data;
          const followee = await store
            .collection<UserDoc>(USERS)
            .findOne({ _id: followeeId }, { projection: { followers_count: 1 } });
          const shouldBeHub = ((followee?.followers_count as number | undefined) ?? 0) > fanoutMaxFollowers;
          const hub = await isHub(store, followeeId);
          const hubs = store.collection<HubsDoc>(TIMELINE_HUBS);
          if (shouldBeHub && !hub) {
            // out of every timeline first, then merged at read time
            const all = (await videosOf(store, followeeId)).map(entryOf);
            await changeTimelines(store, await followersOf(store, followeeId), [], all, event.position);
            await applyOnce(hubs, HUBS_ID, event.position, { $addToSet: { ids: followeeId } }, { upsert: true });
            return;
          }
          if (!shouldBeHub && hub) {
            const visible = (await videosOf(store, followeeId)).filter(isVisibleVideo).map(entryOf);
            await changeTimelines(store, await followersOf(store, followeeId), visible, [], event.position);
            await applyOnce(hubs, HUBS_ID, event.position, { $pull: { ids: followeeId } });
            return;
          }
          if (hub) return;
          const videos = await videosOf(store, followeeId);
          if (event.type === 'UserFollowed')
            await changeTimelines(store, [followerId], videos.filter(isVisibleVideo).map(entryOf), [], event.position);
          else await changeTimelines(store, [followerId], [], videos.map(entryOf), event.position);
          return;
        }
        case 'VideoUploaded':
        case 'VideoRejected':
        case 'VideoDeleted':
        case 'VideoVisibilityChanged': {
          // the videos projector ran first: the document says whether members see the video now
          const video = await store
            .collection<VideoDoc>(VIDEOS)
            .findOne(
              { _id: event.data.videoId },
              { projection: { _id: 1, user_id: 1, created_at: 1, status: 1, processing: 1 } },
            );
          if (!video || (await isHub(store, video.user_id))) return;
          const followers = await followersOf(store, video.user_id);
          const entry = entryOf(video);
          if (isVisibleVideo(video)) await changeTimelines(store, followers, [entry], [], event.position);
          else await changeTimelines(store, followers, [], [entry], event.position);
          return;
        }
        default:
          return;
      }
    },
  };
}

export const timelineProjector: Projector = createTimelineProjector();
