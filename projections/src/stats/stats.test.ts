import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  COIN_PACKS,
  DEFAULT_GIFT_CATALOGUE,
  GIFT_CATALOGUE_STREAM,
  catalogueDecider,
  conversationDecider,
  conversationStream,
  followDecider,
  followingStream,
  reportClaimDecider,
  reportClaimStream,
  userDecider,
  userStream,
  videoDecider,
  videoStream,
  walletDecider,
  walletStream,
  type VideoVisibility,
  type WalletCommand,
  type RecordedAppEvent,
} from '@evo/domain';
import { SqliteReadStore, SqliteEventStore, handleCommand, type EventStore, type ReadStore } from '@evo/infra';
import { allProjectors } from '../registry';
import { rebuildReadModels } from '../runtime/rebuild';
import { statsAsOf } from './as-of';
import { statsMomentsExact, statsQueries, statsQueriesAsOf, STATS_KINDS, type StatsQueries } from './queries';
import {
  STATS,
  STATS_GLOBAL_ID,
  STATS_LOGINS,
  STATS_MOMENTS,
  statsProjector,
  topCreator,
  topVideo,
  type StatsDoc,
} from './stats-projector';
import { ProjectionRunner } from '../runtime/runner';
import { writeScriptedHistory } from '../testing/scripted-history';
import {
  commandAt,
  giveRose,
  postComment,
  registerMember,
  uploadVideo,
  videoState,
  viewVideo,
} from '../testing/member-commands';
import { closedAfterEach } from '../testing/test-lifecycle';

const open = closedAfterEach();

const at = (day: number, hour = 9, minute = 0) => new Date(Date.UTC(2026, 0, day, hour, minute));

/** A small history with known figures, written through the deciders at controlled times. */
async function writeKnownHistory(events: EventStore) {
  const ids: Record<string, string> = {};
  const c = commandAt;
  const register = async (name: string, when: Date) => {
    const userId = randomUUID();
    ids[name] = userId;
    await registerMember(
      events,
      { userId, email: `${name}@test.fr`, pseudo: name, bio: 'b', profilePicture: 'p.png' },
      c(userId, when),
    );
  };
  const login = (name: string, when: Date) =>
    handleCommand(
      events,
      userStream(ids[name]),
      userDecider,
      { type: 'RecordLogin', userId: ids[name] },
      c(ids[name], when),
    );
  const upload = (name: string, videoId: number, when: Date) =>
    uploadVideo(events, { videoId, ownerId: ids[name], title: `Vidéo ${videoId}` }, c(ids[name], when));
  const video = (videoId: number) => videoState(events, videoId);
  const view = async (name: string, videoId: number, times: number, when: Date) => {
    for (let i = 0; i < times; i++) await viewVideo(events, videoId, ids[name], c(ids[name], when));
  };
  const visibility = (videoId: number, v: VideoVisibility, when: Date) =>
    handleCommand(
      events,
      videoStream(videoId),
      videoDecider,
      { type: 'SetVideoVisibility', videoId, visibility: v, requesterId: ids.alice, requesterIsAdmin: true, now: when },
      c(ids.alice, when),
    );
  const wallet = (name: string, command: WalletCommand, when: Date) =>
    handleCommand(events, walletStream(ids[name]), walletDecider, command, c(ids[name], when));
  const gift = (txId: number, coinCost: number, when: Date) =>
    giveRose(events, { giftId: txId, senderId: ids.bob, receiverId: ids.alice, coinCost }, when);

  await handleCommand(
    events,
    GIFT_CATALOGUE_STREAM,
    catalogueDecider,
    { type: 'SeedCatalogue', gifts: [...DEFAULT_GIFT_CATALOGUE] },
    c(undefined, at(1, 8)),
  );
  await register('alice', at(1));
  await upload('alice', 1, at(1, 9, 5));
  await register('bob', at(2));
  await upload('bob', 2, at(2, 9, 5));
  await upload('bob', 3, at(2, 9, 6));
  await handleCommand(
    events,
    videoStream(3),
    videoDecider,
    { type: 'RejectVideo', videoId: 3, reason: 'Illisible' },
    c(undefined, at(2, 9, 10)),
  );
  await login('bob', at(2, 12));
  await register('carol', at(5));
  await login('carol', at(5, 10));
  await login('alice', at(5, 11));
  await view('carol', 1, 3, at(6));
  await view('alice', 2, 1, at(6));
  await handleCommand(
    events,
    reportClaimStream(2, ids.carol),
    reportClaimDecider,
    { type: 'ReportVideo', reportId: 1, videoId: 2, reporterId: ids.carol, reason: 'Spam', video: await video(2) },
    c(ids.carol, at(6, 10)),
  );
  await postComment(
    events,
    { commentId: 1, videoId: 2, authorId: ids.alice, parentId: null, content: 'Bravo' },
    c(ids.alice, at(6, 11)),
  );
  await handleCommand(
    events,
    followingStream(ids.bob),
    followDecider,
    { type: 'Follow', followerId: ids.bob, followeeId: ids.alice, now: at(6, 12) },
    c(ids.bob, at(6, 12)),
  );
  await handleCommand(
    events,
    conversationStream(ids.bob, ids.alice),
    conversationDecider,
    {
      type: 'SendMessage',
      messageId: 1,
      content: 'Salut',
      senderId: ids.bob,
      receiverId: ids.alice,
      senderFollowsReceiver: true,
    },
    c(ids.bob, at(6, 13)),
  );
  // --- after the 10th
  await register('dave', at(20));
  await login('dave', at(20, 10));
  for (const v of [4, 5, 6]) await upload('dave', v, at(20, 11, v));
  await view('carol', 4, 5, at(20, 12));
  await handleCommand(
    events,
    videoStream(6),
    videoDecider,
    { type: 'DeleteVideo', videoId: 6, requesterId: ids.dave, requesterIsAdmin: false, now: at(20, 13) },
    c(ids.dave, at(20, 13)),
  );
  await wallet(
    'bob',
    { type: 'PurchaseCoins', userId: ids.bob, txId: 1, pack: COIN_PACKS[0], provider: 'sandbox', paymentRef: 'r1' },
    at(20, 14),
  );
  // the gift before the added coins: paid with bought coins, so that alice earns withdrawable ones
  await gift(3, 25, at(20, 15));
  await wallet('bob', { type: 'AddCoins', userId: ids.bob, txId: 2, amount: 40 }, at(20, 16));
  await wallet('alice', { type: 'ClaimGift', userId: ids.alice, txId: 4, giftId: 3 }, at(20, 17));
  await gift(5, 5, at(20, 18));
  // only coins earned from gifts are withdrawable: alice withdraws some of the gift she claimed
  await wallet('alice', { type: 'WithdrawCoins', userId: ids.alice, txId: 6, amount: 10 }, at(20, 19));
  await visibility(2, 'masquée', at(21));
  await visibility(1, 'supprimée', at(21, 10));
  await visibility(1, 'publique', at(21, 11));
  const catalogue = (command: Parameters<typeof catalogueDecider.decide>[0]) =>
    handleCommand(events, GIFT_CATALOGUE_STREAM, catalogueDecider, command, c(ids.alice, at(21, 12)));
  await catalogue({ type: 'AddGift', gift: { name: 'Étoile', emoji: '⭐', imageUrl: '', coinCost: 0 } });
  await catalogue({ type: 'AddGift', gift: { name: 'Lune', emoji: '🌙', imageUrl: '', coinCost: 7 } });
  await catalogue({ type: 'RemoveGift', giftId: 9 });
}

async function allStats(read: ReadStore, ref: Date) {
  return allOf(statsQueries(read, ref));
}

async function allOf(q: StatsQueries) {
  return Object.fromEntries(await Promise.all(STATS_KINDS.map(async (k) => [k, await q[k]()] as const)));
}

const END = at(25, 0);
const MIDDLE = at(10, 0);

const expectedAtEnd = {
  general: { users: 4, videos: 6, gifts: 2, coins: 133, messages: 1 },
  advanced: {
    top_creator: { user_email: 'dave@test.fr', video_count: 2 },
    top_video: { title: 'Vidéo 4', views: 5 },
    total_reports: 1,
    public_videos: 3,
    deleted_videos: 1,
    // 6 videos over the 25 days from January 1st to January 25th
    avg_videos_per_day: 0.24,
  },
  users: { total_users: 4, validated_users: 4, new_users_30d: 4, recent_logins_7d: 1 },
  videos: { total_videos: 6, public_videos: 3, hidden_videos: 1, deleted_videos: 1, rejected_videos: 1 },
  messages: { total_messages: 1, private_messages: 1 },
  gifts: { gifts_sent: 2, gifts_catalog: 9 },
  // bought 110 + added 40 = balances 133 + unclaimed 5 + withdrawn 10 + fees 2
  coins: {
    coins_bought: 110,
    coins_added: 40,
    coins_in_balances: 133,
    coins_in_unclaimed_gifts: 5,
    coins_in_transit: 0,
    coins_withdrawn: 10,
    fees: 2,
    purchases: 1,
  },
};

const expectedInTheMiddle = {
  general: { users: 3, videos: 3, gifts: 0, coins: 0, messages: 1 },
  advanced: {
    // alice and bob have one public video each: the earlier member wins
    top_creator: { user_email: 'alice@test.fr', video_count: 1 },
    top_video: { title: 'Vidéo 1', views: 3 },
    total_reports: 1,
    public_videos: 2,
    deleted_videos: 0,
    avg_videos_per_day: 0.3,
  },
  // bob's only login (January 2nd) is more than 7 days before the 10th
  users: { total_users: 3, validated_users: 3, new_users_30d: 3, recent_logins_7d: 2 },
  videos: { total_videos: 3, public_videos: 2, hidden_videos: 0, deleted_videos: 0, rejected_videos: 1 },
  messages: { total_messages: 1, private_messages: 1 },
  gifts: { gifts_sent: 0, gifts_catalog: 8 },
  coins: {
    coins_bought: 0,
    coins_added: 0,
    coins_in_balances: 0,
    coins_in_unclaimed_gifts: 0,
    coins_in_transit: 0,
    coins_withdrawn: 0,
    fees: 0,
    purchases: 0,
  },
};

describe('statistics', () => {
  it('match a history with known figures', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    await writeKnownHistory(events);
    const read = SqliteReadStore.temporary();
    await rebuildReadModels({ events, read, projectors: allProjectors });
    expect(await allStats(read, END)).toEqual(expectedAtEnd);
  });

  it('as of a date replay the log up to it through the same projector', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    await writeKnownHistory(events);
    const middle = await statsAsOf(events, MIDDLE);
    open.push(middle);
    expect(await allStats(middle, MIDDLE)).toEqual(expectedInTheMiddle);
    // as of the end: what the live projection says
    const end = await statsAsOf(events, END, 7);
    open.push(end);
    expect(await allStats(end, END)).toEqual(expectedAtEnd);
    // before anything: zeros and no tops
    const before = await statsAsOf(events, at(1, 0));
    open.push(before);
    expect(await statsQueries(before, at(1, 0)).advanced()).toEqual({
      top_creator: null,
      top_video: null,
      total_reports: 0,
      public_videos: 0,
      deleted_videos: 0,
      avg_videos_per_day: 0,
    });
  });

  it('windows slide with the reference date', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    await writeKnownHistory(events);
    const read = SqliteReadStore.temporary();
    await rebuildReadModels({ events, read, projectors: allProjectors });
    // February 10th: only dave registered within 30 days; nobody logged in within 7
    expect(await statsQueries(read, new Date(Date.UTC(2026, 1, 10))).users()).toEqual({
      total_users: 4,
      validated_users: 4,
      new_users_30d: 1,
      recent_logins_7d: 0,
    });
  });

  /**
   * Every moment worth asking about: before the first event, each event's time, a millisecond
   * before and after it, halfway to the next one, and the windows' edges (7 and 30 days after each
   * time, and a millisecond around them), so that each figure is seen changing and not changing.
   */
  function momentsOf(times: number[], edges: boolean): Date[] {
    const DAY = 86_400_000;
    const distinct = [...new Set(times)].sort((a, b) => a - b);
    const out = new Set<number>([distinct[0] - DAY]);
    distinct.forEach((t, i) => {
      for (const d of edges ? [0, 7 * DAY, 30 * DAY] : [0])
        for (const e of edges ? [-1, 0, 1] : [0]) out.add(t + d + e);
      if (i + 1 < distinct.length) out.add(Math.floor((t + distinct[i + 1]) / 2));
    });
    return [...out].sort((a, b) => a - b).map((t) => new Date(t));
  }

  async function expectAsOfEqualsReplay(events: EventStore, mode: 'filter' | 'prefix' = 'filter', edges = true) {
    const all: { metadata: { at: string } }[] = [];
    for await (const batch of events.readAll(undefined, 500)) all.push(...batch);
    const moments = momentsOf(
      all.map((e) => Date.parse(e.metadata.at)),
      edges,
    );
    // live, event by event in small batches, and by a rebuild: the same answers
    const live = SqliteReadStore.temporary();
    open.push(live);
    const runner = new ProjectionRunner({ events, read: live, projectors: allProjectors, batchSize: 3 });
    await runner.start();
    expect(await runner.waitFor((await events.lastPosition())!, 60_000)).toBe(true);
    await runner.stop();
    const rebuilt = SqliteReadStore.temporary();
    open.push(rebuilt);
    await rebuildReadModels({ events, read: rebuilt, projectors: allProjectors, batchSize: 5 });
    let compared = 0;
    for (const moment of moments) {
      const replay = await statsAsOf(events, moment, 1000, mode);
      const expected = await allStats(replay, moment);
      await replay.close();
      expect({ moment, figures: await allOf(statsQueriesAsOf(live, moment)) }).toEqual({ moment, figures: expected });
      expect({ moment, figures: await allOf(statsQueriesAsOf(rebuilt, moment)) }).toEqual({
        moment,
        figures: expected,
      });
      compared++;
    }
    // the history moved every kind of figure at least once (the comparison is not trivially of zeros)
    expect(compared).toBe(moments.length);
    return { live, moments };
  }

  it('as of any moment are queries that equal the replay of the log up to it (differential)', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    await writeKnownHistory(events);
    const { live } = await expectAsOfEqualsReplay(events);
    expect(await statsMomentsExact(live)).toBe(true);
    // the known figures, from the moments
    expect(await allOf(statsQueriesAsOf(live, MIDDLE))).toEqual(expectedInTheMiddle);
    expect(await allOf(statsQueriesAsOf(live, END))).toEqual(expectedAtEnd);
    // bounded: a moment per time at which a figure changed, at most one per event; a login day per member and day
    const moments = await live.collection(STATS_MOMENTS).countDocuments({});
    expect(moments).toBeGreaterThan(10);
    expect(await live.collection(STATS_LOGINS).countDocuments({})).toBe(4);
  }, 120_000);

  it("as of any moment of the projections' scripted history equal the replay too (differential)", async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    await writeScriptedHistory(events, 3);
    // its times go back and forth (processing is stamped March 1st): each time and halfway between
    const { live } = await expectAsOfEqualsReplay(events, 'prefix', false);
    // so the moments say the log as it stood, and the route replays instead
    expect(await statsMomentsExact(live)).toBe(false);
  }, 120_000);

  it('keep the tops event by event as the queries find them (ties, tops hidden, deleted, members gone)', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    // a seeded history of few members and videos, so that ties and tops leaving are frequent
    let seed = 27;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const members: string[] = [];
    const videos: { id: number; owner: string }[] = [];
    let minute = 0;
    // members registered two by two at the same instant: tied on their registration time
    const when = () => new Date(Date.UTC(2026, 0, 1) + 60_000 * Math.floor(minute++ / 2));
    const refusedOrDone = (p: Promise<unknown>) => p.catch(() => undefined);
    for (let step = 0; step < 400; step++) {
      const roll = random(100);
      const who = members[random(Math.max(1, members.length))];
      const video = videos[random(Math.max(1, videos.length))];
      if (members.length < 3 || roll < 6) {
        const userId = randomUUID();
        members.push(userId);
        await registerMember(
          events,
          {
            userId,
            email: `m${members.length}@test.fr`,
            pseudo: `m${members.length}`,
            bio: '',
            profilePicture: 'p.png',
          },
          commandAt(userId, when()),
        );
      } else if (roll < 25 || !video) {
        const id = videos.length + 1;
        videos.push({ id, owner: who });
        await refusedOrDone(
          uploadVideo(events, { videoId: id, ownerId: who, title: `V${id}` }, commandAt(who, when())),
        );
      } else if (roll < 75) {
        await refusedOrDone(viewVideo(events, video.id, who, commandAt(who, when())));
      } else if (roll < 93) {
        const visibility = (['publique', 'masquée', 'supprimée'] as const)[random(3)];
        const now = when();
        await refusedOrDone(
          handleCommand(
            events,
            videoStream(video.id),
            videoDecider,
            {
              type: 'SetVideoVisibility',
              videoId: video.id,
              visibility,
              requesterId: video.owner,
              requesterIsAdmin: true,
              now,
            },
            commandAt(video.owner, now),
          ),
        );
      } else {
        await refusedOrDone(
          handleCommand(
            events,
            userStream(who),
            userDecider,
            { type: 'DeleteAccount', userId: who, passwordMatches: true, withdrawableCoins: 0 },
            commandAt(who, when()),
          ),
        );
      }
    }
    const read = SqliteReadStore.temporary();
    open.push(read);
    for (const [collection, specs] of Object.entries(statsProjector.indexes ?? {}))
      for (const spec of specs) await read.collection(collection).createIndex(spec);
    const ctx = { live: false, push: () => undefined, rooms: () => undefined };
    const seen = { creators: new Set<string>(), videos: new Set<number>(), gone: 0 };
    for await (const batch of events.readAll(undefined, 100)) {
      for (const event of batch) {
        await statsProjector.project(event as RecordedAppEvent, read, ctx);
        if (!(statsProjector.eventTypes as readonly string[]).includes(event.type)) continue;
        const kept = await read.collection<StatsDoc>(STATS).findOne({ _id: STATS_GLOBAL_ID });
        const queried = { creator: await topCreator(read), video: await topVideo(read) };
        expect({ position: event.position, creator: kept?.top_creator, video: kept?.top_video }).toEqual({
          position: event.position,
          ...queried,
        });
        if (queried.creator) seen.creators.add(queried.creator._id);
        if (queried.video) seen.videos.add(queried.video._id);
        if (event.type === 'AccountDeleted') seen.gone++;
      }
    }
    // the history moved both tops among several members and videos, and members left
    expect(seen.creators.size).toBeGreaterThan(2);
    expect(seen.videos.size).toBeGreaterThan(2);
    expect(seen.gone).toBeGreaterThan(2);
  }, 120_000);
});
