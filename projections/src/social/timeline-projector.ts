import type { LogPosition } from '@evo/domain';
import type { BulkOp, Doc, ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { MEMBER_GONE_EVENTS, goneMember } from '../runtime/member-gone';
import { applyOnce, insertOnce, writeEdge } from '../runtime/write-once';
import { chunks } from '../runtime/chunks';
import { VISIBILITY_DELETED, VISIBILITY_PUBLIC } from '../videos/videos-projector';
import {
  VIDEO_VISIBILITY_EVENTS,
  shownToMembers,
  visibilityChangeOf,
  type VideoVisibility,
} from '../videos/video-visibility';
import { followEdgeId } from './follows-projector';

/*
 * The friends feed as a read model (fan-out on write). Everything the projector decides from is
 * projected by itself from the events, into its own collections: it reads no other projector's
 * documents, so it gives the same read models whatever the order the projectors run in.
 */

/** One row per entry of a member's friends feed: a visible video of someone they follow. */
export const TIMELINE_ENTRIES = 'timeline_entries';
/** What the timeline knows of each video: its owner, its date and whether members see it. */
export const TIMELINE_VIDEOS = 'timeline_videos';
/** The follow edges, as the timeline needs them (followers of a creator). */
export const TIMELINE_FOLLOWS = 'timeline_follows';
/** Per followed creator: the follower count and whether they are a hub. */
export const TIMELINE_CREATORS = 'timeline_creators';

/**
 * A creator with more followers than this is a hub: their videos are not copied into their
 * followers' timelines (one upload would be that many writes) but merged at read time from
 * `timeline_videos`; a hub is fanned out again below half of it. The rule depends only on the
 * creator's follower count as of the event, so live projection, a redelivery and a rebuild put
 * every creator on the same side.
 */
export const FANOUT_MAX_FOLLOWERS = 1000;

export interface TimelineEntryDoc extends Doc {
  /** `${follower_id}:${video_id}` */
  _id: string;
  follower_id: string;
  /** the video's date (`created_at`) */
  at: string;
  video_id: number;
}

export interface TimelineVideoDoc extends Doc, VideoVisibility {
  _id: number;
  owner_id: string;
  at: string;
  /** shown to members: public and not rejected (the videos read model's VISIBLE_VIDEO) */
  visible: boolean;
}

export interface TimelineFollowDoc extends Doc {
  /** followEdgeId(follower_id, followee_id) */
  _id: string;
  follower_id: string;
  followee_id: string;
}

export interface TimelineCreatorDoc extends Doc {
  _id: string;
  followers: number;
  /** true while merged at read time (absent: fanned out) */
  hub?: boolean;
}

/** Feed order of the entries, the order of their index: newest first, ties by the smaller video id. */
export const ENTRY_ORDER = { at: -1, video_id: 1 } as const;
/** The same order for a hub's videos, the order of their index. */
export const HUB_VIDEO_ORDER = { at: -1, _id: 1 } as const;

/** An entry of a feed: a video and its date. */
export interface TimelineEntry {
  id: number;
  at: string;
}

/** Feed order: newest first, then the smaller video id. */
export const feedOrder = (a: TimelineEntry, b: TimelineEntry) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.id - b.id);

export const timelineEntryId = (followerId: string, videoId: number) => `${followerId}:${videoId}`;

/** bulk writes of entries go by this many operations (one round trip each on MongoDB) */
const WRITE_CHUNK = 500;

/**
 * Puts every video of `videos` into each of `followers`' timelines; an entry already there stays
 * as it is. One upsert per entry, by `_id` (FerretDB pushes `_id` equalities down).
 */
async function addEntries(
  store: ReadStore,
  followers: readonly string[],
  videos: ReadonlyArray<Pick<TimelineVideoDoc, '_id' | 'at'>>,
): Promise<void> {
  const ops: BulkOp[] = [];
  for (const f of followers)
    for (const v of videos)
      ops.push({
        updateOne: {
          filter: { _id: timelineEntryId(f, v._id) },
          update: { $setOnInsert: { follower_id: f, at: v.at, video_id: v._id } },
          upsert: true,
        },
      });
  const entries = store.collection<TimelineEntryDoc>(TIMELINE_ENTRIES);
  for (const part of chunks(ops, WRITE_CHUNK)) await entries.bulkWrite(part);
}

/** Takes the videos `videoIds` out of each of `followers`' timelines (those not there are skipped). */
async function removeEntries(store: ReadStore, followers: readonly string[], videoIds: readonly number[]) {
  const ops: BulkOp[] = [];
  for (const f of followers)
    for (const v of videoIds) ops.push({ deleteOne: { filter: { _id: timelineEntryId(f, v) } } });
  const entries = store.collection<TimelineEntryDoc>(TIMELINE_ENTRIES);
  for (const part of chunks(ops, WRITE_CHUNK)) await entries.bulkWrite(part);
}

const followersOf = async (store: ReadStore, creatorId: string): Promise<string[]> =>
  (
    await store
      .collection<TimelineFollowDoc>(TIMELINE_FOLLOWS)
      .find({ followee_id: creatorId }, { projection: { follower_id: 1 } })
  ).map((f) => f.follower_id);

/** the creator's videos: every one, or only those members see */
const videosOf = (store: ReadStore, creatorId: string, only?: { visible: true }) =>
  store
    .collection<TimelineVideoDoc>(TIMELINE_VIDEOS)
    .find({ owner_id: creatorId, ...only }, { projection: { _id: 1, at: 1 } });

const isHub = async (store: ReadStore, creatorId: string) =>
  (await store.collection<TimelineCreatorDoc>(TIMELINE_CREATORS).findOne({ _id: creatorId }))?.hub === true;

/**
 * The followers' timelines made to agree with the video as it is now: in them while it is shown,
 * out otherwise (a hub's videos are in none). Written from the state rather than from the event,
 * so a redelivered event finishes what a crash interrupted.
 */
async function showOrHide(store: ReadStore, video: TimelineVideoDoc): Promise<void> {
  if (await isHub(store, video.owner_id)) return;
  const followers = await followersOf(store, video.owner_id);
  if (video.visible) await addEntries(store, followers, [video]);
  else await removeEntries(store, followers, [video._id]);
}

/** A video's status or rejection changed by an event (guarded), then its entries follow. */
async function changeVideo(
  store: ReadStore,
  videoId: number,
  change: Partial<VideoVisibility>,
  position: LogPosition,
): Promise<void> {
  const videos = store.collection<TimelineVideoDoc>(TIMELINE_VIDEOS);
  const before = await videos.findOne({ _id: videoId });
  if (!before) return;
  const after = { ...before, ...change, visible: shownToMembers({ ...before, ...change }) };
  const applied = await applyOnce(videos, videoId, position, { $set: { ...change, visible: after.visible } });
  // not applied: a later event already wrote the video (a redelivery); follow it as it is
  await showOrHide(store, applied ? after : before);
}

/**
 * A follow or an unfollow: the edge and the creator's follower count (guarded), then the
 * timelines. Crossing the hub threshold moves the creator's videos out of (or into) every
 * follower's timeline before the creator's `hub` flag says so (a crash in between leaves both,
 * which the feed deduplicates, never neither).
 */
async function followChanged(
  store: ReadStore,
  followerId: string,
  followeeId: string,
  following: boolean,
  position: LogPosition,
  fanoutMaxFollowers: number,
): Promise<void> {
  const follows = store.collection<TimelineFollowDoc>(TIMELINE_FOLLOWS);
  const creators = store.collection<TimelineCreatorDoc>(TIMELINE_CREATORS);
  const edge = followEdgeId(followerId, followeeId);
  await writeEdge(follows, edge, position, following ? { follower_id: followerId, followee_id: followeeId } : null);
  await applyOnce(creators, followeeId, position, { $inc: { followers: following ? 1 : -1 } }, { upsert: true });
  const creator = await creators.findOne({ _id: followeeId });
  const hub = creator?.hub === true;
  // back under half the threshold only: a creator whose count wavers around it is not moved each time
  const shouldBeHub = (creator?.followers ?? 0) > (hub ? fanoutMaxFollowers / 2 : fanoutMaxFollowers);
  if (shouldBeHub && !hub) {
    const all = (await videosOf(store, followeeId)).map((v) => v._id);
    await removeEntries(store, await followersOf(store, followeeId), all);
    await creators.updateOne({ _id: followeeId }, { $set: { hub: true } });
    return;
  }
  if (!shouldBeHub && hub) {
    await addEntries(store, await followersOf(store, followeeId), await videosOf(store, followeeId, { visible: true }));
    await creators.updateOne({ _id: followeeId }, { $set: { hub: false } });
    return;
  }
  if (hub) return;
  // the edge as it is now (a follow always leaves one): a redelivered unfollow leaves the
  // entries of a later follow in place
  if (following || (await follows.findOne({ _id: edge }, { projection: { _id: 1 } })))
    await addEntries(store, [followerId], await videosOf(store, followeeId, { visible: true }));
  else
    await removeEntries(
      store,
      [followerId],
      (await videosOf(store, followeeId)).map((v) => v._id),
    );
}

/**
 * A deleted member (`AccountDeleted`, then again `MemberErased` for what raced in): their videos
 * leave their followers' timelines, their own timeline goes, the creators they followed count
 * one follower less, their edges go; their videos are kept hidden until the erasure, then removed.
 */
async function forgetMember(store: ReadStore, memberId: string, erased: boolean, position: LogPosition) {
  const follows = store.collection<TimelineFollowDoc>(TIMELINE_FOLLOWS);
  const creators = store.collection<TimelineCreatorDoc>(TIMELINE_CREATORS);
  const videos = store.collection<TimelineVideoDoc>(TIMELINE_VIDEOS);
  const own = (await videosOf(store, memberId)).map((v) => v._id);
  await removeEntries(store, await followersOf(store, memberId), own);
  await store.collection<TimelineEntryDoc>(TIMELINE_ENTRIES).deleteMany({ follower_id: memberId });
  const followed = await follows.find({ follower_id: memberId }, { projection: { followee_id: 1 } });
  for (const f of followed) await applyOnce(creators, f.followee_id, position, { $inc: { followers: -1 } });
  await follows.deleteMany({ follower_id: memberId });
  await follows.deleteMany({ followee_id: memberId });
  await creators.deleteOne({ _id: memberId });
  if (erased) await videos.deleteMany({ owner_id: memberId });
  else await videos.updateMany({ owner_id: memberId }, { $set: { status: VISIBILITY_DELETED, visible: false } });
}

/**
 * Friends feeds as a read model (fan-out on write): each member's timeline holds one row per
 * visible video of whom they follow, so a feed page is one ordered index read, whatever the
 * follow count or the platform's size. A new visible video goes into its owner's followers'
 * timelines; a follow brings the followee's visible videos in, an unfollow takes them out; a video
 * hidden, deleted or rejected leaves every timeline, made public again it comes back. Hubs
 * (creators above `fanoutMaxFollowers` followers) are left out of timelines and merged at read time.
 */
export function createTimelineProjector(options: { fanoutMaxFollowers?: number } = {}): Projector {
  const fanoutMaxFollowers = options.fanoutMaxFollowers ?? FANOUT_MAX_FOLLOWERS;
  return {
    name: 'timeline',
    collections: [TIMELINE_ENTRIES, TIMELINE_VIDEOS, TIMELINE_FOLLOWS, TIMELINE_CREATORS],
    eventTypes: ['UserFollowed', 'UserUnfollowed', 'VideoUploaded', ...VIDEO_VISIBILITY_EVENTS, ...MEMBER_GONE_EVENTS],
    indexes: {
      // a feed page: one member's entries in feed order
      [TIMELINE_ENTRIES]: [{ key: { follower_id: 1, ...ENTRY_ORDER } }],
      // a creator's videos (all, or the visible ones in feed order for the hubs' merge)
      [TIMELINE_VIDEOS]: [{ key: { owner_id: 1, visible: 1, ...HUB_VIDEO_ORDER } }],
      [TIMELINE_FOLLOWS]: [{ key: { followee_id: 1 } }, { key: { follower_id: 1 } }],
      [TIMELINE_CREATORS]: [{ key: { hub: 1 } }],
    },
    async project(event, store) {
      const gone = goneMember(event);
      if (gone) return forgetMember(store, gone, event.type === 'MemberErased', event.position);
      const visibility = visibilityChangeOf(event);
      if (visibility) return changeVideo(store, visibility.videoId, visibility.change, event.position);
      switch (event.type) {
        case 'UserFollowed':
        case 'UserUnfollowed': {
          const { followerId, followeeId } = event.data;
          const following = event.type === 'UserFollowed';
          return followChanged(store, followerId, followeeId, following, event.position, fanoutMaxFollowers);
        }
        case 'VideoUploaded': {
          const video: TimelineVideoDoc = {
            _id: event.data.videoId,
            owner_id: event.data.ownerId,
            at: event.metadata.at,
            status: VISIBILITY_PUBLIC,
            rejected: false,
            visible: true,
          };
          // the first event of a video: a redelivery finds it written (maybe changed since) and
          // follows it as it is
          const written = await insertOnce(store.collection<TimelineVideoDoc>(TIMELINE_VIDEOS), video);
          const now = written
            ? video
            : await store.collection<TimelineVideoDoc>(TIMELINE_VIDEOS).findOne({ _id: video._id });
          if (now) await showOrHide(store, now);
          return;
        }
        default:
          return;
      }
    },
  };
}

export const timelineProjector: Projector = createTimelineProjector();
