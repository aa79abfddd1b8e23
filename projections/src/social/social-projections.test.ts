import { describe, expect, it } from 'vitest';
import {
  REPORT_SEQUENCE,
  favoritesDecider,
  favoritesStream,
  followDecider,
  followingStream,
  likeDecider,
  likeStream,
  reportClaimDecider,
  reportClaimStream,
  videoDecider,
  videoStream,
} from '@evo/domain';
import { IdBlocks, SqliteReadStore, SqliteEventStore, handleCommand, type EventStore } from '@evo/infra';
import { allProjectors } from '../registry';
import { rebuildReadModels } from '../runtime/rebuild';
import { writeScriptedHistory } from '../testing/scripted-history';
import { dumpReadModels } from '../testing/read-model-dump';
import { USERS, type UserDoc } from '../identity/users-projector';
import { VIDEOS, isVisibleVideo, type VideoDoc } from '../videos/videos-projector';
import {
  FOLLOWING,
  FOLLOWS,
  FOLLOW_COUNTS,
  type FollowCountsDoc,
  type FollowDoc,
  type FollowingDoc,
} from './follows-projector';
import { CREATOR_COUNTERS, LIKES, type CreatorCountersDoc, type LikeDoc } from './video-counters-projector';
import { videoCounts } from '../identity/queries';
import { REPORTS, type ReportDoc } from '../moderation/reports-projector';
import { PAGE, socialQueries } from './queries';
import { friendsFeedByJoin } from '../testing/friends-feed-join';
import { newMember, uploadVideo, videoState, viewVideo } from '../testing/member-commands';
import { closedAfterEach } from '../testing/test-lifecycle';
import { minuteApartContexts } from '../testing/member-commands';
import { projectWithPushes } from '../testing/project-with-pushes';
import { explain } from '@evo/infra/testing/read-store-plans';

const open = closedAfterEach<SqliteEventStore>();

const ctx = minuteApartContexts(Date.UTC(2026, 4, 1, 8));

/** A tiny world written through the real deciders: members, videos and social facts. */
function world() {
  const events = new SqliteEventStore(':memory:');
  open.push(events);
  const ids = new IdBlocks(events);
  const video = (videoId: number) => videoState(events, videoId);
  return {
    events,
    member: (pseudo: string) => newMember(events, pseudo, ctx, `Bio de ${pseudo}`),
    async upload(ownerId: string, title: string) {
      const videoId = await ids.next('video', ctx(ownerId));
      await uploadVideo(events, { videoId, ownerId, title }, ctx(ownerId));
      return videoId;
    },
    reject: (videoId: number) =>
      handleCommand(
        events,
        videoStream(videoId),
        videoDecider,
        { type: 'RejectVideo', videoId, reason: 'Illisible' },
        ctx(),
      ),
    follow: (a: string, b: string, type: 'Follow' | 'Unfollow' = 'Follow') =>
      handleCommand(
        events,
        followingStream(a),
        followDecider,
        { type, followerId: a, followeeId: b, now: new Date() },
        ctx(a),
      ),
    like: async (u: string, videoId: number, type: 'Like' | 'Unlike' = 'Like') =>
      handleCommand(
        events,
        likeStream(videoId, u),
        likeDecider,
        { type, videoId, userId: u, video: await video(videoId), now: new Date() },
        ctx(u),
      ),
    async view(u: string, videoId: number) {
      await viewVideo(events, videoId, u, ctx(u));
    },
    favorite: async (u: string, videoId: number) =>
      handleCommand(
        events,
        favoritesStream(u),
        favoritesDecider,
        { type: 'ToggleFavorite', userId: u, videoId, video: await video(videoId) },
        ctx(u),
      ),
    async report(u: string, videoId: number, reason: string) {
      const reportId = await ids.next(REPORT_SEQUENCE, ctx(u));
      await handleCommand(
        events,
        reportClaimStream(videoId, u),
        reportClaimDecider,
        { type: 'ReportVideo', reportId, videoId, reporterId: u, reason, video: await video(videoId) },
        ctx(u),
      );
      return reportId;
    },
    remove: (u: string, videoId: number, requesterIsAdmin = false) => {
      const cx = ctx(u);
      return handleCommand(
        events,
        videoStream(videoId),
        videoDecider,
        { type: 'DeleteVideo', videoId, requesterId: u, requesterIsAdmin, now: cx.now },
        cx,
      );
    },
  };
}

async function build(events: EventStore) {
  const read = SqliteReadStore.temporary();
  await rebuildReadModels({ events, read, projectors: allProjectors });
  return read;
}

describe('social projections', () => {
  it('keep every counter equal to what the edges and visible videos say', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    await writeScriptedHistory(events, 6);
    const read = await build(events);
    const users = await read.collection<UserDoc>(USERS).find({});
    const videos = await read.collection<VideoDoc>(VIDEOS).find({});
    const follows = await read.collection<FollowDoc>(FOLLOWS).find({});
    const likes = await read.collection<LikeDoc>(LIKES).find({});
    expect(follows.length).toBeGreaterThan(5);
    expect(likes.length).toBeGreaterThan(3);
    expect(videos.some((v) => v.status === 'supprimée')).toBe(true);
    const counts = await videoCounts(
      read,
      videos.map((v) => v.id),
    );
    const likesOf = (id: number) => counts.get(id)?.likes_count ?? 0;
    for (const v of videos) expect(likesOf(v.id)).toBe(likes.filter((l) => l.video_id === v.id).length);
    const followCounts = new Map(
      (await read.collection<FollowCountsDoc>(FOLLOW_COUNTS).find({})).map((c) => [c._id, c]),
    );
    const creators = new Map(
      (await read.collection<CreatorCountersDoc>(CREATOR_COUNTERS).find({})).map((c) => [c._id, c]),
    );
    const lists = await read.collection<FollowingDoc>(FOLLOWING).find({});
    for (const l of lists) {
      // in follow order: each edge's guard is the position of the follow that wrote it
      const edges = follows
        .filter((f) => f.follower_id === l._id)
        .sort((a, b) => String(a._pos).localeCompare(String(b._pos)));
      expect(l.ids).toEqual(edges.map((f) => f.followee_id));
    }
    expect(lists.reduce((s, l) => s + l.ids.length, 0)).toBe(follows.length);
    for (const u of users) {
      const visible = videos.filter((v) => v.user_id === u._id && isVisibleVideo(v));
      expect(followCounts.get(u._id)?.followers_count ?? 0).toBe(follows.filter((f) => f.followee_id === u._id).length);
      expect(followCounts.get(u._id)?.following_count ?? 0).toBe(follows.filter((f) => f.follower_id === u._id).length);
      expect(creators.get(u._id)?.videos_count ?? 0).toBe(visible.length);
      expect(creators.get(u._id)?.total_likes ?? 0).toBe(visible.reduce((s, v) => s + likesOf(v.id), 0));
    }
    expect(videos.reduce((s, v) => s + (counts.get(v.id)?.views_count ?? 0), 0)).toBe(6 * 2 + 1);
  });

  it('push a new follower, counter changes to the owner and the video room, once even when redelivered', async () => {
    const w = world();
    const alice = await w.member('alice');
    const bob = await w.member('bob');
    const v = await w.upload(bob, 'Clip');
    await w.follow(alice, bob);
    await w.like(alice, v);
    await w.view(alice, v);
    const once = await projectWithPushes(w.events, 1);
    const twice = await projectWithPushes(w.events, 2);
    expect(await dumpReadModels(twice.read)).toEqual(await dumpReadModels(once.read));
    const social = once.pushes.filter((p) => p.event !== 'session:changed' && !p.event.startsWith('notification:'));
    expect(social).toEqual([
      { room: `user:${bob}`, event: 'follow:new', payload: { followerPseudo: 'alice' } },
      { room: `video:${v}`, event: 'video:counters', payload: { videoId: v, likes_count: 1, views_count: 0 } },
      { room: `user:${bob}`, event: 'video:counters', payload: { videoId: v, likes_count: 1, views_count: 0 } },
      { room: `video:${v}`, event: 'video:counters', payload: { videoId: v, likes_count: 1, views_count: 1 } },
    ]);
    expect(twice.pushes).toEqual(once.pushes);
  });

  it('take a deleted video out of feeds, suggestions, favourites and counts', async () => {
    const w = world();
    const alice = await w.member('alice');
    const bob = await w.member('bob');
    const carol = await w.member('carol');
    const v1 = await w.upload(bob, 'Premier');
    const v2 = await w.upload(bob, 'Second');
    const c1 = await w.upload(carol, 'De Carol');
    await w.follow(alice, bob);
    await w.like(alice, v1);
    await w.like(carol, v1);
    await w.like(alice, v2);
    await w.favorite(alice, v1);
    let q = socialQueries(await build(w.events));
    expect((await q.friendsFeed(alice, { page: 1, limit: 20 })).map((v) => v.title)).toEqual(['Second', 'Premier']);
    expect(await q.stats(bob)).toEqual({ following: 0, followers: 1, total_likes: 3 });

    await w.remove(bob, v1);
    const read = await build(w.events);
    q = socialQueries(read);
    expect((await read.collection<VideoDoc>(VIDEOS).findOne({ _id: v1 }))?.status).toBe('supprimée');
    expect((await q.friendsFeed(alice, { page: 1, limit: 20 })).map((v) => v.title)).toEqual(['Second']);
    expect(await q.favorites(alice, { page: 1, limit: 20 })).toEqual([]);
    expect(await q.stats(bob)).toEqual({ following: 0, followers: 1, total_likes: 1 });
    expect((await q.friends(alice))[0]).toEqual({
      pseudo: 'bob',
      email: 'bob@test.fr',
      bio: 'Bio de bob',
      profile_picture: 'bob.png',
      followers: 1,
      videos_count: 1,
      likes: 1,
    });
    const forCarol = await q.suggestions(carol, { page: 1, limit: 20 });
    expect(forCarol.map((s) => [s.pseudo, s.videos.map((v) => v.title)])).toEqual([['bob', ['Second']]]);
    // once every video of bob is gone (one deleted, one rejected), he is no longer suggested
    await w.reject(v2);
    q = socialQueries(await build(w.events));
    expect(await q.suggestions(carol, { page: 1, limit: 20 })).toEqual([]);
    expect(await q.stats(bob)).toEqual({ following: 0, followers: 1, total_likes: 0 });
    expect((await q.suggestions(alice, { page: 1, limit: 20 })).map((s) => s.pseudo)).toEqual(['carol']);
    expect((await q.video(c1, alice))?.visible).toBe(true);
  });

  it('answer the suggestions with the viewer’s flags on their videos', async () => {
    const w = world();
    const alice = await w.member('alice');
    const bob = await w.member('bob');
    await w.upload(bob, 'bob 1');
    const liked = await w.upload(bob, 'bob 2');
    await w.like(alice, liked);
    await w.favorite(alice, liked);
    const q = socialQueries(await build(w.events));
    const [bobs] = await q.suggestions(alice, { page: 1, limit: 20 });
    expect(bobs.videos.map((v) => [v.title, v.liked_by_me, v.favorited_by_me])).toEqual([
      ['bob 2', true, true],
      ['bob 1', false, false],
    ]);
  });

  it('answer the feed newest first, page by page, with the viewer’s flags', async () => {
    const w = world();
    const alice = await w.member('alice');
    const bob = await w.member('bob');
    const carol = await w.member('carol');
    const dave = await w.member('dave');
    const titles: string[] = [];
    for (let i = 0; i < 5; i++) {
      titles.push(`bob ${i}`);
      await w.upload(bob, `bob ${i}`);
      titles.push(`carol ${i}`);
      await w.upload(carol, `carol ${i}`);
    }
    await w.upload(dave, 'not followed');
    await w.follow(alice, bob);
    await w.follow(alice, carol);
    await w.follow(alice, dave);
    await w.follow(alice, dave, 'Unfollow');
    const liked = await w.upload(bob, 'liked');
    titles.push('liked');
    await w.like(alice, liked);
    await w.favorite(alice, liked);
    const q = socialQueries(await build(w.events));
    const newest = [...titles].reverse();
    const p1 = await q.friendsFeed(alice, { page: 1, limit: 4 });
    const p2 = await q.friendsFeed(alice, { page: 2, limit: 4 });
    const p3 = await q.friendsFeed(alice, { page: 3, limit: 4 });
    expect([...p1, ...p2, ...p3].map((v) => v.title)).toEqual(newest);
    expect(p1[0]).toMatchObject({
      title: 'liked',
      liked_by_me: true,
      favorited_by_me: true,
      likes_count: 1,
      user_pseudo: 'bob',
      user_email: 'bob@test.fr',
    });
    expect(p1[1]).toMatchObject({ liked_by_me: false, favorited_by_me: false });
    expect(p1[0]).not.toHaveProperty('user_id');
    expect(p1[0]).not.toHaveProperty('_pos');
    expect(await q.friendsFeed(bob, { page: 1, limit: 20 })).toEqual([]);
    expect(await q.isFollowing(alice, bob)).toBe(true);
    expect(await q.isFollowing(alice, dave)).toBe(false);
    expect(await q.isFollowing(bob, alice)).toBe(false);
    expect((await q.friends(alice)).map((f) => f.pseudo)).toEqual(['carol', 'bob']);
    expect((await q.favorites(alice, { page: 1, limit: 20 })).map((v) => v.title)).toEqual(['liked']);
    // suggestions: never yourself nor whom you follow
    expect((await q.suggestions(alice, { page: 1, limit: 20 })).map((s) => s.pseudo)).toEqual(['dave']);
    expect((await q.suggestions(bob, { page: 1, limit: 20 })).map((s) => s.pseudo).sort()).toEqual(['carol', 'dave']);
    const bobs = (await q.suggestions(dave, { page: 1, limit: 20 })).find((s) => s.pseudo === 'bob')!;
    expect(bobs.videos.map((v) => v.title)).toEqual(['liked', 'bob 4', 'bob 3']);
    expect(Object.keys(bobs).sort()).toEqual(['email', 'profile_picture', 'pseudo', 'videos']);
  });

  it('record reports with the fields of the moderation screen', async () => {
    const w = world();
    const alice = await w.member('alice');
    const bob = await w.member('bob');
    const v = await w.upload(bob, 'Douteuse');
    const id = await w.report(alice, v, 'Non spécifié');
    const read = await build(w.events);
    const doc = await read.collection<ReportDoc>(REPORTS).findOne({ _id: id });
    expect(doc).toMatchObject({
      id,
      video_id: v,
      video_title: 'Douteuse',
      status: 'en_attente',
      signalant: 'alice',
      auteur: 'bob',
      reason: 'Non spécifié',
      admin_response: null,
    });
    expect(doc?.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('read through indexes: a query touches a few documents, not the collections', async () => {
    const w = world();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await w.member(`m${i}`));
    for (let i = 0; i < 30; i++) for (let k = 0; k < 3; k++) await w.upload(ids[i], `v${i}.${k}`);
    for (let i = 0; i < 30; i++) for (let k = 1; k <= 3; k++) await w.follow(ids[i], ids[(i + k) % 30]);
    const read = await build(w.events);
    const q = socialQueries(read);
    const cost = async (run: () => Promise<unknown>) => {
      const before = read.counters.docsExamined;
      await run();
      return read.counters.docsExamined - before;
    };
    // the hubs (none, nor their follow edges); the timeline's 9 entries (3 followees' 3 videos); the
    // 9 videos by _id and their 9 counters (the flags find no like nor favourite, the comment
    // counts no comment)
    expect(await cost(() => q.friendsFeed(ids[0], { page: 1, limit: PAGE.defaultLimit }))).toBe(0 + 9 + 9 + 9);
    // the following list; the 3 members, their follow counts and their creator counters
    expect(await cost(() => q.friends(ids[0]))).toBeLessThanOrEqual(1 + 3 * 3);
    // the member, their follow counts, their creator counters
    expect(await cost(() => q.stats(ids[0]))).toBe(3);
    expect(await cost(() => q.isFollowing(ids[0], ids[1]))).toBeLessThanOrEqual(1);
    // one batch of 20 members (newest first) of the 30, their creator counters and the member's
    // edges to them; then 3 videos for each of 5, and their counters
    expect(await cost(() => q.suggestions(ids[0], { page: 1, limit: 5 }))).toBeLessThanOrEqual(20 * 2 + 3 + 5 * 3 * 2);
    expect(
      explain(
        read,
        VIDEOS,
        { user_id: { $in: ids.slice(0, 3) }, status: 'publique', processing: { $ne: 'rejetée' } },
        { sort: { created_at: -1, _id: 1 } },
      ).plan,
    ).toBe('IXSCAN');
  });
});

describe("the query-time join (the timeline tests' oracle) over a long history", () => {
  it('equals the brute-force answer on every page: few followees, many, many without videos', async () => {
    const read = SqliteReadStore.temporary();
    for (const p of allProjectors)
      for (const [name, specs] of Object.entries(p.indexes ?? {}))
        for (const spec of specs) await read.collection(name).createIndex(spec);
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const members = 400;
    const t0 = Date.UTC(2024, 0, 1);
    const all: VideoDoc[] = [];
    for (let id = 1; id <= 3500; id++) {
      const owner = Math.floor(rand() * members);
      const roll = rand();
      const doc = {
        _id: id,
        id,
        title: `v${id}`,
        user_id: `u${owner}`,
        status: roll < 0.05 ? 'supprimée' : 'publique',
        processing: roll > 0.95 ? 'rejetée' : 'prête',
        // two years, some at the very same instant
        created_at: new Date(t0 + Math.floor(rand() * 730) * 86_400_000 + (id % 3) * 1000).toISOString(),
        likes_count: 0,
      } as unknown as VideoDoc;
      all.push(doc);
      await read.collection(VIDEOS).insertOne(doc);
    }
    const follow = async (a: number, b: number) => {
      await read.collection(FOLLOWS).insertOne({
        _id: `u${a}:u${b}`,
        follower_id: `u${a}`,
        followee_id: `u${b}`,
        created_at: new Date(t0 + b).toISOString(),
      });
      await read.collection(FOLLOWING).updateOne({ _id: `u${a}` }, { $addToSet: { ids: `u${b}` } }, { upsert: true });
    };
    for (const b of [3, 50, 77]) await follow(0, b);
    for (let b = 2; b < members; b++) await follow(1, b);
    // many followees without videos: the scan of the newest videos gives up, each followee is sought
    const ghosts = Array.from({ length: 300 }, (_, i) => 1000 + i);
    for (const b of [...ghosts, 5, 6]) await follow(2, b);
    const cases = [
      [0, [3, 50, 77]],
      [1, Array.from({ length: members - 2 }, (_, i) => i + 2)],
      [2, [...ghosts, 5, 6]],
    ] as const;
    for (const [who, followees] of cases) {
      const set = new Set(followees.map((b) => `u${b}`));
      const expected = all
        .filter((v) => set.has(v.user_id) && isVisibleVideo(v))
        .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id - b.id))
        .map((v) => v.id);
      const got: number[] = [];
      for (let page = 1; ; page++) {
        const items = await friendsFeedByJoin(read, `u${who}`, { page, limit: 50 });
        got.push(...items.map((v) => v.id));
        if (items.length < 50) break;
      }
      expect(got).toEqual(expected);
    }
  });
});
