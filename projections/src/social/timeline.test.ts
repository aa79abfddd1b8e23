import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RecordedAppEvent } from '@evo/domain';
import { SqliteReadStore, type ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { usersProjector } from '../identity/users-projector';
import { VIDEOS, videosProjector } from '../videos/videos-projector';
import { dumpReadModels } from '../testing/read-model-dump';
import { friendsFeedByJoin } from '../testing/friends-feed-join';
import { followsProjector } from './follows-projector';
import { reportsProjector } from '../moderation/reports-projector';
import { decisionsProjector } from '../moderation/decisions-projector';
import {
  ENTRY_ORDER,
  HUB_VIDEO_ORDER,
  TIMELINE_CREATORS,
  TIMELINE_ENTRIES,
  TIMELINE_VIDEOS,
  createTimelineProjector,
  type TimelineCreatorDoc,
  type TimelineEntryDoc,
} from './timeline-projector';
import { socialQueries } from './queries';
import { explain } from '@evo/infra/testing/read-store-plans';

/** hubs from this many followers on, so that random histories cross the threshold both ways */
const SMALL_THRESHOLD = 3;

/**
 * The timeline first: it reads none of the others' documents, so it needs none of them projected
 * before it (the join reads the videos and follows projectors' documents).
 */
const projectorsWith = (fanoutMaxFollowers: number): Projector[] => [
  createTimelineProjector({ fanoutMaxFollowers }),
  usersProjector,
  videosProjector,
  followsProjector,
  reportsProjector,
  decisionsProjector,
];

/** the stores opened since the last `closeStores()`: a property closes its run's own, so its files do not pile up */
const openStores: SqliteReadStore[] = [];
const closeStores = async () => {
  while (openStores.length) await openStores.pop()!.close();
};
afterEach(closeStores);

async function emptyStore(projectors: readonly Projector[]): Promise<SqliteReadStore> {
  const read = SqliteReadStore.temporary();
  openStores.push(read);
  for (const p of projectors)
    for (const [name, specs] of Object.entries(p.indexes ?? {}))
      for (const spec of specs) await read.collection(name).createIndex(spec);
  return read;
}

const ctx = { live: true, push: () => {}, rooms: () => {} };
async function project(read: ReadStore, projectors: readonly Projector[], events: readonly RecordedAppEvent[]) {
  for (const e of events) for (const p of projectors) await p.project(e, read, ctx);
}

/** One step of a random history; the numbers pick members, videos and instants (invalid picks are skipped). */
type Step = {
  kind:
    | 'register'
    | 'upload'
    | 'follow'
    | 'unfollow'
    | 'visibility'
    | 'delete'
    | 'reject'
    | 'process'
    | 'report'
    | 'restrict'
    | 'leave';
  a: number;
  b: number;
  /** half-days from the start: several steps share an instant, dates go back and forth over months */
  t: number;
};

const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom(
    'register',
    'upload',
    'upload',
    'upload',
    'follow',
    'follow',
    'follow',
    'follow',
    'unfollow',
    'visibility',
    'delete',
    'reject',
    'process',
    'report',
    'restrict',
    'leave',
  ),
  a: fc.nat(50),
  b: fc.nat(50),
  t: fc.nat(240),
});

const T0 = Date.UTC(2026, 0, 1);
const uid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/**
 * Turns steps into a valid log (what the deciders would let through): members registered first,
 * no self-follow nor double follow, each video's rules (processing once, delete once, moderation
 * to another visibility), reports and their decisions, restrictions (they change no feed), members
 * deleting their account (AccountDeleted; MemberErased at the next departure, so that events
 * happen in between) and then doing nothing more.
 */
function historyOf(steps: readonly Step[], initialMembers = 3): RecordedAppEvent[] {
  const out: RecordedAppEvent[] = [];
  let position = 0n;
  let members = 0;
  const follows = new Set<string>();
  const videos: Array<{ owner: string; status: string; processed: boolean }> = [];
  let reports = 0;
  let restrictions = 0;
  const gone = new Set<string>();
  let unerased: string[] = [];
  const emit = (type: string, data: unknown, t: number) => {
    position += 1n;
    out.push({
      id: `e${position}`,
      type,
      data,
      metadata: { correlationId: 'c', at: new Date(T0 + t * 43_200_000).toISOString() },
      streamId: 's',
      revision: 0,
      position,
    } as unknown as RecordedAppEvent);
  };
  const register = (t: number) => {
    const userId = uid(members++);
    emit(
      'UserRegistered',
      {
        userId,
        email: `${userId}@test.fr`,
        pseudo: `m${members}`,
        passwordHash: 'h',
        bio: '',
        profilePicture: 'p.png',
      },
      t,
    );
  };
  for (let i = 0; i < initialMembers; i++) register(0);
  for (const s of steps) {
    const member = uid(s.a % members);
    const other = uid(s.b % members);
    const v = videos.length > 0 ? s.b % videos.length : -1;
    const videoId = v + 1;
    // a deleted member does nothing more, and their videos are out of every decision
    if (gone.has(member) || (s.kind !== 'register' && s.kind !== 'leave' && gone.has(other))) continue;
    if (v >= 0 && gone.has(videos[v].owner) && s.kind !== 'upload' && s.kind !== 'register') continue;
    switch (s.kind) {
      case 'register':
        if (members < 12) register(s.t);
        break;
      case 'upload':
        videos.push({ owner: member, status: 'publique', processed: false });
        emit(
          'VideoUploaded',
          {
            videoId: videos.length,
            ownerId: member,
            title: `v${videos.length}`,
            description: '',
            filePath: `/uploads/videos/${videos.length}.mp4`,
            mimeType: 'video/mp4',
            sizeBytes: 1,
          },
          s.t,
        );
        break;
      case 'follow':
      case 'unfollow': {
        const edge = `${member}:${other}`;
        if (member === other || follows.has(edge) === (s.kind === 'follow')) break;
        if (s.kind === 'follow') follows.add(edge);
        else follows.delete(edge);
        emit(s.kind === 'follow' ? 'UserFollowed' : 'UserUnfollowed', { followerId: member, followeeId: other }, s.t);
        break;
      }
      case 'visibility': {
        if (v < 0) break;
        const choices = ['publique', 'masquée', 'supprimée'].filter((x) => x !== videos[v].status);
        videos[v].status = choices[s.a % 2];
        emit('VideoVisibilityChanged', { videoId, status: videos[v].status, changedBy: uid(0) }, s.t);
        break;
      }
      case 'delete':
        if (v < 0 || videos[v].status === 'supprimée') break;
        videos[v].status = 'supprimée';
        emit('VideoDeleted', { videoId, ownerId: videos[v].owner, deletedBy: videos[v].owner }, s.t);
        break;
      case 'reject':
      case 'process':
        if (v < 0 || videos[v].processed) break;
        videos[v].processed = true;
        if (s.kind === 'reject') emit('VideoRejected', { videoId, reason: 'Illisible' }, s.t);
        else
          emit(
            'VideoProcessed',
            { videoId, durationSeconds: 3, sizeBytes: 1, codec: 'h264', width: 1, height: 1, posterPath: null },
            s.t,
          );
        break;
      case 'report': {
        if (v < 0 || member === videos[v].owner) break;
        const reportId = ++reports;
        emit('VideoReported', { reportId, videoId, reporterId: member, reason: 'Non spécifié' }, s.t);
        // the administrator's decision: closed, and the video hidden (or, every other time, left as it is)
        emit(
          'ReportStatusChanged',
          {
            reportId,
            videoId,
            reporterId: member,
            authorId: videos[v].owner,
            status: 'ferme',
            adminResponse: s.a % 2 === 0 ? 'Masquée' : null,
            previousStatus: 'en_attente',
            previousAdminResponse: null,
          },
          s.t,
        );
        if (s.a % 2 === 0 && videos[v].status !== 'masquée') {
          videos[v].status = 'masquée';
          emit('VideoVisibilityChanged', { videoId, status: 'masquée', changedBy: uid(0) }, s.t);
        }
        break;
      }
      case 'restrict':
        emit(
          'MemberRestricted',
          {
            userId: member,
            restrictionNo: ++restrictions,
            scopes: ['upload'],
            endsAt: null,
            reason: 'Non-respect des consignes',
            at: new Date(T0 + s.t * 43_200_000).toISOString(),
          },
          s.t,
        );
        break;
      case 'leave': {
        for (const m of unerased) emit('MemberErased', { userId: m, files: 0 }, s.t);
        unerased = [];
        if (members - gone.size <= 2) break;
        gone.add(member);
        unerased.push(member);
        for (const edge of [...follows]) if (edge.includes(member)) follows.delete(edge);
        emit('AccountDeleted', { userId: member }, s.t);
        break;
      }
    }
  }
  return out;
}

/** Every member's feed, page by page, from the timeline and from the join: they must be equal. */
async function expectFeedsEqual(read: ReadStore, members: number, limit: number) {
  const q = socialQueries(read);
  for (let i = 0; i < members; i++) {
    for (let page = 1; ; page++) {
      const got = await q.friendsFeed(uid(i), { page, limit });
      const want = await friendsFeedByJoin(read, uid(i), { page, limit });
      expect(got.map((v) => v.id)).toEqual(want.map((v) => v.id));
      if (want.length < limit || page > 40) break;
    }
  }
}

const memberCount = (events: readonly RecordedAppEvent[]) => events.filter((e) => e.type === 'UserRegistered').length;

describe('friends feed from the timeline read model', () => {
  it('answers exactly the query-time join, page by page, all along random histories (hubs crossing the threshold both ways, members leaving)', async () => {
    const projectors = projectorsWith(SMALL_THRESHOLD);
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 20, maxLength: 160, size: 'max' }),
        fc.integer({ min: 1, max: 4 }),
        async (steps, limit) => {
          const events = historyOf(steps);
          const read = await emptyStore(projectors);
          try {
            // checked every 15 events and at the end: unfollows and visibility changes in between
            for (let i = 0; i < events.length; i += 15) {
              await project(read, projectors, events.slice(i, i + 15));
              await expectFeedsEqual(read, memberCount(events.slice(0, i + 15)), limit);
            }
          } finally {
            await closeStores();
          }
        },
      ),
      { numRuns: 60 },
    );
    // each run projects a history into read models in a file of their own: a few seconds in all
  }, 120_000);

  it('rebuilds the same documents whatever the redelivery: each event twice, or a suffix of the log again', async () => {
    const projectors = projectorsWith(SMALL_THRESHOLD);
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 20, maxLength: 160, size: 'max' }),
        fc.nat(),
        async (steps, cut) => {
          const events = historyOf(steps);
          try {
            const once = await emptyStore(projectors);
            await project(once, projectors, events);
            const twice = await emptyStore(projectors);
            for (const e of events) await project(twice, projectors, [e, e]);
            const again = await emptyStore(projectors);
            await project(again, projectors, events);
            // a crash before the checkpoint: everything after it is delivered again
            await project(again, projectors, events.slice(cut % events.length));
            const expected = await dumpReadModels(once);
            expect(await dumpReadModels(twice)).toEqual(expected);
            expect(await dumpReadModels(again)).toEqual(expected);
          } finally {
            await closeStores();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('does not fan out a hub’s uploads, merges them at read time, and fans them out again below half the threshold', async () => {
    const projectors = projectorsWith(2);
    const steps: Step[] = [
      { kind: 'register', a: 0, b: 0, t: 1 },
      { kind: 'upload', a: 0, b: 0, t: 2 },
      { kind: 'follow', a: 1, b: 0, t: 3 },
      { kind: 'follow', a: 2, b: 0, t: 4 },
      { kind: 'follow', a: 3, b: 0, t: 5 },
      { kind: 'upload', a: 0, b: 0, t: 6 },
      { kind: 'upload', a: 1, b: 0, t: 7 },
      { kind: 'follow', a: 0, b: 1, t: 7 },
    ];
    const events = historyOf(steps);
    const read = await emptyStore(projectors);
    const entries = read.collection<TimelineEntryDoc>(TIMELINE_ENTRIES);
    const hubs = async () =>
      (await read.collection<TimelineCreatorDoc>(TIMELINE_CREATORS).find({ hub: true })).map((c) => c._id);
    await project(read, projectors, events.slice(0, 8));
    // three followers of member 0 (more than 2): a hub, out of every timeline
    expect(await hubs()).toEqual([uid(0)]);
    expect(await entries.countDocuments()).toBe(0);
    await project(read, projectors, events.slice(8, 10));
    expect(await entries.countDocuments()).toBe(0);
    expect((await socialQueries(read).friendsFeed(uid(1), { page: 1, limit: 5 })).map((v) => v.id)).toEqual([2, 1]);
    await project(read, projectors, events.slice(10));
    await expectFeedsEqual(read, 4, 1);
    // one unfollow leaves 2 followers: still a hub (not under half the threshold)
    const fewer = historyOf([...steps, { kind: 'unfollow', a: 3, b: 0, t: 8 }]);
    await project(read, projectors, fewer.slice(-1));
    expect(await hubs()).toEqual([uid(0)]);
    await expectFeedsEqual(read, 4, 2);
    // a second leaves 1: fanned out to the follower left, in feed order
    const back = historyOf([...steps, { kind: 'unfollow', a: 3, b: 0, t: 8 }, { kind: 'unfollow', a: 2, b: 0, t: 9 }]);
    await project(read, projectors, back.slice(-1));
    expect(await hubs()).toEqual([]);
    expect((await entries.find({ follower_id: uid(1) }, { sort: ENTRY_ORDER })).map((e) => e.video_id)).toEqual([2, 1]);
    await expectFeedsEqual(read, 4, 2);
    expect(await read.collection(VIDEOS).countDocuments()).toBe(3);
  });

  it('reads a feed page from the index, in its order, and only the page (SQLite query plans)', async () => {
    const projectors = projectorsWith(2);
    // member 0 a hub of 3 followers; member 1 follows them and member 2, who uploads 30 videos
    const steps: Step[] = [
      { kind: 'register', a: 0, b: 0, t: 1 },
      { kind: 'follow', a: 1, b: 0, t: 1 },
      { kind: 'follow', a: 2, b: 0, t: 1 },
      { kind: 'follow', a: 3, b: 0, t: 1 },
      { kind: 'follow', a: 1, b: 2, t: 1 },
      ...Array.from({ length: 30 }, (_, i): Step => ({ kind: 'upload', a: i % 3 === 0 ? 0 : 2, b: 0, t: 2 + i })),
    ];
    const read = await emptyStore(projectors);
    await project(read, projectors, historyOf(steps));
    const feed = explain(read, TIMELINE_ENTRIES, { follower_id: uid(1) }, { sort: ENTRY_ORDER, limit: 20 });
    expect(feed.plan, feed.details.join('; ')).toBe('IXSCAN');
    expect(feed.tempSort || feed.sortedHere, feed.details.join('; ')).toBe(false);
    const hub = explain(
      read,
      TIMELINE_VIDEOS,
      { owner_id: uid(0), visible: true, at: { $gte: '2026-01-01' } },
      { sort: HUB_VIDEO_ORDER, limit: 20 },
    );
    expect(hub.plan, hub.details.join('; ')).toBe('IXSCAN');
    expect(hub.tempSort || hub.sortedHere, hub.details.join('; ')).toBe(false);
    // what a page reads: the hub list, the follow edge to the hub, 10 entries of the timeline
    // (20 fanned-out videos; pages 1 and 2 of 5 need 10), the hub's 10 newest, the page's 5 videos
    const q = socialQueries(read);
    const before = read.counters.docsExamined;
    const page = await q.friendsFeed(uid(1), { page: 2, limit: 5 });
    expect(read.counters.docsExamined - before).toBeLessThanOrEqual(1 + 1 + 10 + 10 + 5);
    expect(page.map((v) => v.id)).toEqual(
      (await friendsFeedByJoin(read, uid(1), { page: 2, limit: 5 })).map((v) => v.id),
    );
    expect(await read.collection(TIMELINE_ENTRIES).countDocuments({ follower_id: uid(1) })).toBe(20);
  });
});
