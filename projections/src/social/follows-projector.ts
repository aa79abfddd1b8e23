import type { LogPosition } from '@evo/domain';
import type { Doc, ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce, writeEdge } from '../runtime/write-once';
import { USERS, type UserDoc } from '../identity/users-projector';
import { MEMBER_GONE_EVENTS, goneMember } from '../runtime/member-gone';

export const FOLLOWS = 'follows';
/** one document per follower: the ids they follow, in follow order (feeds and suggestions read it in one go) */
export const FOLLOWING = 'following';
/** one document per member with a follow either way: how many follow them, how many they follow */
export const FOLLOW_COUNTS = 'follow_counts';

/**
 * One follower → followee edge. Read by _id ("does X follow Y", the hubs a member follows) and by
 * followee (the timelines' fan-out); no query orders edges, so they carry no date: at a million
 * edges a date costs 50 MB of heap (the follow's date stays in its event).
 */
export interface FollowDoc extends Doc {
  /** `${follower_id}:${followee_id}` */
  _id: string;
  follower_id: string;
  followee_id: string;
}

export interface FollowCountsDoc extends Doc {
  /** the member's id */
  _id: string;
  followers_count: number;
  following_count: number;
}

/** Whom one member follows, oldest follow first. */
export interface FollowingDoc extends Doc {
  /** the follower's id */
  _id: string;
  ids: string[];
}

/**
 * A deleted member's follows, both ways, leave the graph; the members they followed lose a
 * follower, those who followed them one followee. Counters first (guarded: a redelivery finds
 * them applied), then the edges, from which the counters were taken.
 */
async function forgetFollows(store: ReadStore, memberId: string, position: LogPosition): Promise<void> {
  const follows = store.collection<FollowDoc>(FOLLOWS);
  const counts = store.collection<FollowCountsDoc>(FOLLOW_COUNTS);
  const following = store.collection<FollowingDoc>(FOLLOWING);
  const followed = await follows.find({ follower_id: memberId });
  const followers = await follows.find({ followee_id: memberId });
  // one guarded write per member: a member may both follow and be followed by the deleted one
  const changes = new Map<string, { followers_count: number; following_count: number }>();
  const change = (id: string) => {
    const c = changes.get(id) ?? { followers_count: 0, following_count: 0 };
    changes.set(id, c);
    return c;
  };
  for (const f of followed) if (f.followee_id !== memberId) change(f.followee_id).followers_count--;
  for (const f of followers) if (f.follower_id !== memberId) change(f.follower_id).following_count--;
  for (const [id, inc] of changes) await applyOnce(counts, id, position, { $inc: inc });
  for (const f of followers)
    if (f.follower_id !== memberId) await applyOnce(following, f.follower_id, position, { $pull: { ids: memberId } });
  await follows.deleteMany({ follower_id: memberId });
  await follows.deleteMany({ followee_id: memberId });
  await following.deleteOne({ _id: memberId });
  await counts.deleteOne({ _id: memberId });
}

export const followEdgeId = (followerId: string, followeeId: string) => `${followerId}:${followeeId}`;

/**
 * The follow graph: `follows` edges (one per follow, found by _id or by followee),
 * `following` lists (a member's followees in one document: reading 2,000 edges costs 2,000
 * documents, reading the list costs one) and each member's `followers_count` / `following_count`
 * (`follow_counts`).
 * Pushes 'follow:new' { followerPseudo } to the followed member's room.
 */
export const followsProjector: Projector = {
  name: 'follows',
  collections: [FOLLOWS, FOLLOWING, FOLLOW_COUNTS],
  eventTypes: ['UserFollowed', 'UserUnfollowed', ...MEMBER_GONE_EVENTS],
  indexes: {
    [FOLLOWS]: [{ key: { followee_id: 1 } }, { key: { follower_id: 1 } }],
  },
  async project(event, store, ctx) {
    const gone = goneMember(event);
    if (gone) return forgetFollows(store, gone, event.position);
    if (event.type !== 'UserFollowed' && event.type !== 'UserUnfollowed') return;
    const { followerId, followeeId } = event.data;
    const follows = store.collection<FollowDoc>(FOLLOWS);
    const counts = store.collection<FollowCountsDoc>(FOLLOW_COUNTS);
    const id = followEdgeId(followerId, followeeId);
    const follow = event.type === 'UserFollowed';
    const following = store.collection<FollowingDoc>(FOLLOWING);
    await writeEdge(follows, id, event.position, follow ? { follower_id: followerId, followee_id: followeeId } : null);
    if (follow)
      await applyOnce(following, followerId, event.position, { $addToSet: { ids: followeeId } }, { upsert: true });
    else await applyOnce(following, followerId, event.position, { $pull: { ids: followeeId } });
    const step = follow ? 1 : -1;
    await applyOnce(
      counts,
      followerId,
      event.position,
      { $inc: { following_count: step }, $setOnInsert: { followers_count: 0 } },
      { upsert: true },
    );
    const counted = await applyOnce(
      counts,
      followeeId,
      event.position,
      { $inc: { followers_count: step }, $setOnInsert: { following_count: 0 } },
      { upsert: true },
    );
    if (follow && counted && ctx.live) {
      // only to shape the live push, never a write (the documents stay the same whatever order the
      // projectors run in): the follower's pseudo as `users` has it now
      const follower = await store
        .collection<UserDoc>(USERS)
        .findOne({ _id: followerId }, { projection: { pseudo: 1 } });
      ctx.push(`user:${followeeId}`, 'follow:new', { followerPseudo: follower?.pseudo ?? '' });
    }
  },
};
