import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  COIN_PACKS,
  followDecider,
  followingStream,
  likeDecider,
  likeStream,
  walletDecider,
  walletStream,
  type RecordedAppEvent,
  type RecordedEvent,
  type WalletCommand,
} from '@evo/domain';
import { SqliteEventStore, SqliteReadStore, handleCommand, type EventStore } from '@evo/infra';
import { allProjectors } from '../registry';
import { rebuildReadModels } from '../runtime/rebuild';
import { ProjectionRunner } from '../runtime/runner';
import { dumpReadModels } from '../testing/read-model-dump';
import { giveRose, postComment, registerMember, uploadVideo, videoState, viewVideo } from '../testing/member-commands';
import { closedAfterEach } from '../testing/test-lifecycle';
import { commandAt } from '../testing/member-commands';
import {
  ANALYTICS_CREATOR_DAYS,
  ANALYTICS_VIDEOS,
  ANALYTICS_VIDEO_DAYS,
  analyticsProjector,
} from './analytics-projector';
import { analyticsQueries } from './queries';
import { addDays, daysBetween, parisDay } from './days';

const open = closedAfterEach();
const ANALYTICS = [ANALYTICS_CREATOR_DAYS, ANALYTICS_VIDEO_DAYS, ANALYTICS_VIDEOS];

const at = (day: number, hour = 9, minute = 0) => new Date(Date.UTC(2026, 0, day, hour, minute));

/**
 * alice's videos 1 and 2 seen, liked, unliked, commented; alice followed and unfollowed, sent a
 * gift; one like at 23:30 UTC, already the next day in Paris.
 */
async function writeHistory(events: EventStore) {
  const ids: Record<string, string> = {};
  const c = commandAt;
  for (const name of ['alice', 'bob', 'carol']) {
    ids[name] = randomUUID();
    await registerMember(
      events,
      { userId: ids[name], email: `${name}@test.fr`, pseudo: name, bio: 'b', profilePicture: 'p.png' },
      c(ids[name], at(1, 8)),
    );
  }
  const upload = (videoId: number) =>
    uploadVideo(events, { videoId, ownerId: ids.alice, title: `Vidéo ${videoId}` }, c(ids.alice, at(1, 9, videoId)));
  const view = (name: string, videoId: number, when: Date) => viewVideo(events, videoId, ids[name], c(ids[name], when));
  const like = async (name: string, videoId: number, type: 'Like' | 'Unlike', when: Date) =>
    handleCommand(
      events,
      likeStream(videoId, ids[name]),
      likeDecider,
      { type, videoId, userId: ids[name], video: await videoState(events, videoId), now: when },
      c(ids[name], when),
    );
  const follow = (name: string, type: 'Follow' | 'Unfollow', when: Date) =>
    handleCommand(
      events,
      followingStream(ids[name]),
      followDecider,
      { type, followerId: ids[name], followeeId: ids.alice, now: when },
      c(ids[name], when),
    );
  const wallet = (name: string, command: WalletCommand, when: Date) =>
    handleCommand(events, walletStream(ids[name]), walletDecider, command, c(ids[name], when));

  await upload(1);
  await upload(2);
  // the previous week
  await view('bob', 1, at(3));
  // this week
  await view('bob', 1, at(10, 10));
  await view('bob', 1, at(10, 11));
  await view('carol', 2, at(10, 12));
  // 23:30 UTC on the 10th is 00:30 on the 11th in Paris (UTC+1 in January)
  await like('carol', 1, 'Like', at(10, 23, 30));
  await like('bob', 1, 'Like', at(11, 9));
  await follow('bob', 'Follow', at(11, 9, 5));
  await follow('carol', 'Follow', at(11, 9, 6));
  await like('bob', 1, 'Unlike', at(12, 9));
  await follow('carol', 'Unfollow', at(12, 9, 5));
  await postComment(
    events,
    { commentId: 1, videoId: 2, authorId: ids.carol, parentId: null, content: 'Bravo' },
    c(ids.carol, at(12, 10)),
  );
  await wallet(
    'bob',
    { type: 'PurchaseCoins', userId: ids.bob, txId: 1, pack: COIN_PACKS[0], provider: 'sandbox', paymentRef: 'r1' },
    at(12, 11),
  );
  await giveRose(
    events,
    { giftId: 2, senderId: ids.bob, receiverId: ids.alice, coinCost: 10 },
    at(12, 12),
    at(12, 12, 1),
  );
  return ids;
}

async function allEvents(events: EventStore): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const batch of events.readAll(undefined, 100)) out.push(...batch);
  return out;
}

const NOW = at(12, 15);
const zeros = {
  views: 0,
  likes: 0,
  likes_given: 0,
  likes_withdrawn: 0,
  comments: 0,
  gifts: 0,
  gift_coins: 0,
  followers_gained: 0,
  followers_lost: 0,
};

describe('Paris days', () => {
  it('follow the Paris calendar in winter (UTC+1) and summer (UTC+2)', () => {
    expect(parisDay('2026-01-10T22:59:59Z')).toBe('2026-01-10');
    expect(parisDay('2026-01-10T23:00:00Z')).toBe('2026-01-11');
    expect(parisDay('2026-07-10T21:59:59Z')).toBe('2026-07-10');
    expect(parisDay('2026-07-10T22:00:00Z')).toBe('2026-07-11');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    // the day the clocks change still counts once
    expect(daysBetween('2026-03-28', '2026-03-30')).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
  });
});

describe('creator analytics projection', () => {
  it('count each day of a known history, with likes net and followers both ways', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    const ids = await writeHistory(events);
    const read = SqliteReadStore.temporary();
    open.push(read);
    await rebuildReadModels({ events, read, projectors: allProjectors });
    const q = analyticsQueries(read);

    const week = await q.creator({ _id: ids.alice, pseudo: 'alice' }, 7, NOW);
    expect(week).toMatchObject({
      pseudo: 'alice',
      period: 7,
      time_zone: 'Europe/Paris',
      from: '2026-01-06',
      to: '2026-01-12',
    });
    expect(week.days.map((d) => d.day)).toEqual(daysBetween('2026-01-06', '2026-01-12'));
    const day = (d: string) => week.days.find((x) => x.day === d);
    expect(day('2026-01-09')).toEqual({ day: '2026-01-09', ...zeros });
    expect(day('2026-01-10')).toEqual({ day: '2026-01-10', ...zeros, views: 3 });
    expect(day('2026-01-11')).toEqual({ day: '2026-01-11', ...zeros, likes: 2, likes_given: 2, followers_gained: 2 });
    expect(day('2026-01-12')).toEqual({
      day: '2026-01-12',
      ...zeros,
      likes: -1,
      likes_withdrawn: 1,
      comments: 1,
      gifts: 1,
      // 10 coins less the 10 % fee
      gift_coins: 9,
      followers_lost: 1,
    });
    expect(week.totals).toEqual({
      views: 3,
      likes: 1,
      likes_given: 2,
      likes_withdrawn: 1,
      comments: 1,
      gifts: 1,
      gift_coins: 9,
      followers_gained: 2,
      followers_lost: 1,
    });
    expect(week.previous).toEqual({ ...zeros, views: 1 });
    expect(week.top_videos).toEqual([
      { id: 1, title: 'Vidéo 1', poster: null, status: 'publique', views: 2, likes: 1, comments: 0 },
      { id: 2, title: 'Vidéo 2', poster: null, status: 'publique', views: 1, likes: 0, comments: 1 },
    ]);

    // 30 days: the view of the 3rd is in the period, nothing before it
    const month = await q.creator({ _id: ids.alice, pseudo: 'alice' }, 30, NOW);
    expect(month.days).toHaveLength(30);
    expect(month.totals.views).toBe(4);
    expect(month.previous).toEqual(zeros);
    expect(month.top_videos[0]).toMatchObject({ id: 1, views: 3 });

    const video = await q.video({ id: 1, title: 'Vidéo 1', status: 'publique', user_pseudo: 'alice' }, 7, NOW);
    expect(video.totals).toEqual({ ...zeros, views: 2, likes: 1, likes_given: 2, likes_withdrawn: 1 });
    expect(video.previous).toEqual({ ...zeros, views: 1 });
    expect(video.days.find((d) => d.day === '2026-01-11')).toMatchObject({ likes: 2 });

    // a member nobody watched: zeros every day, no top
    const bob = await q.creator({ _id: ids.bob, pseudo: 'bob' }, 60, NOW);
    expect(bob.days).toHaveLength(60);
    expect(bob.totals).toEqual(zeros);
    expect(bob.top_videos).toEqual([]);
  });

  it('count each event once when it is delivered again', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    await writeHistory(events);
    const ctx = { live: true, push: () => {}, rooms: () => {} };
    const once = SqliteReadStore.temporary();
    const twice = SqliteReadStore.temporary();
    open.push(once, twice);
    const list = (await allEvents(events)).filter((e) =>
      (analyticsProjector.eventTypes as readonly string[]).includes(e.type),
    ) as RecordedAppEvent[];
    for (const e of list) await analyticsProjector.project(e, once, ctx);
    for (const e of list) {
      await analyticsProjector.project(e, twice, ctx);
      await analyticsProjector.project(e, twice, ctx);
    }
    // and the whole log once more, as after a crash before the checkpoint
    for (const e of list) await analyticsProjector.project(e, twice, ctx);
    const a = await dumpReadModels(once);
    expect(a[ANALYTICS_CREATOR_DAYS]?.length).toBeGreaterThan(3);
    expect(await dumpReadModels(twice)).toEqual(a);
  });

  it('give the same documents live as by a rebuild from the log', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    const live = SqliteReadStore.temporary();
    open.push(live);
    const runner = new ProjectionRunner({ events, read: live, projectors: allProjectors });
    await runner.start();
    open.push({ close: () => runner.stop() });
    const ids = await writeHistory(events);
    expect(await runner.waitFor((await events.lastPosition())!, 60_000)).toBe(true);

    const rebuilt = SqliteReadStore.temporary();
    open.push(rebuilt);
    await rebuildReadModels({ events, read: rebuilt, projectors: allProjectors, batchSize: 5 });

    const pick = (dump: Record<string, unknown[]>) => Object.fromEntries(ANALYTICS.map((c) => [c, dump[c]]));
    const a = pick(await dumpReadModels(live));
    const b = pick(await dumpReadModels(rebuilt));
    // what the history wrote, so that the comparison is not of two empty sets: alice's days and her
    // videos' (Paris days: the 23:30 UTC like of the 10th is the 11th's)
    const idsOf = (docs: unknown[] | undefined) => (docs as Array<{ _id: unknown }>).map((d) => d._id).sort();
    expect(idsOf(a[ANALYTICS_VIDEOS])).toEqual([1, 2]);
    expect(idsOf(a[ANALYTICS_CREATOR_DAYS])).toEqual(
      ['2026-01-03', '2026-01-10', '2026-01-11', '2026-01-12'].map((day) => `${ids.alice}|${day}`),
    );
    expect(idsOf(a[ANALYTICS_VIDEO_DAYS])).toEqual([
      '1|2026-01-03',
      '1|2026-01-10',
      '1|2026-01-11',
      '1|2026-01-12',
      '2|2026-01-10',
      '2|2026-01-12',
    ]);
    expect(a).toEqual(b);
    // and the answers too
    const answer = (read: SqliteReadStore) =>
      analyticsQueries(read).creator({ _id: ids.alice, pseudo: 'alice' }, 60, NOW);
    expect(await answer(live)).toEqual(await answer(rebuilt));
  });
});
