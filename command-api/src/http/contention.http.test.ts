import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent } from '@evo/domain';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD, systemContext, WrongExpectedRevisionError } from '@evo/infra';
import { registerUser } from '../identity/commands';
import { SESSION_COOKIE } from './session';
import { MESSAGES, RETRY_AFTER_SECONDS } from './errors';
import { Client, registerAndLogin, startTestServer, type TestServer } from '../testing/test-server';

/**
 * Issue 29 item 3: many members acting on one video (or one creator) at once. No answer is a
 * 5xx, and every count is exact. A comment has a stream of its own; likes, views, reports and
 * gifts were already on streams of their own (per member), which this holds too.
 */
let server: TestServer;
let admin: Client;
beforeAll(async () => {
  // contention, not the members' write limits (member-limits.http.test.ts): one member posts 200 at once
  server = await startTestServer({ MEMBER_LIMITS: 'false' });
  admin = new Client(server.url);
  expect((await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD })).status).toBe(
    200,
  );
});
afterAll(() => server.stop());

/** Members registered through the command (one password hash for all) with a session each: fast. */
async function members(count: number): Promise<Array<Client & { email: string }>> {
  const passwordHash = await server.deps.passwords.hash('motdepasse1');
  const out: Array<Client & { email: string }> = [];
  for (let i = 0; i < count; i++) {
    const tag = `${Date.now().toString(36)}${i}`;
    const { userId } = await registerUser(
      server.deps.events,
      { email: `foule${tag}@test.fr`, pseudo: `foule${tag}`, passwordHash, bio: 'Une bio' },
      undefined,
      systemContext(),
    );
    const session = await server.deps.sessions.open(userId);
    const client = Object.assign(new Client(server.url), { email: `foule${tag}@test.fr` });
    client.cookie = `${SESSION_COOKIE}=${session.cookieValue}`;
    out.push(client);
  }
  return out;
}

async function settle() {
  await server.settle(60_000);
  const last = (await server.deps.events.lastPosition())!;
  expect(await server.giftCredits!.waitFor(last, 20_000)).toBe(true);
  expect(await server.deps.progress.waitFor((await server.deps.events.lastPosition())!, 20_000)).toBe(true);
}

async function newVideo() {
  const creator = await registerAndLogin(server.url);
  await settle();
  const profile = (await creator.client.get(`/api/users/profile/${creator.member.pseudo}`)).json as {
    videos: Array<{ id: number }>;
  };
  return { creator, videoId: profile.videos[0].id };
}

const counts = async (videoId: number) => {
  await settle();
  const v = (await admin.get(`/api/videos/${videoId}`)).json as Record<string, number>;
  return { likes: v.likes_count, comments: v.comments_count, views: v.views_count };
};

describe('many writes on one video at once', () => {
  it('takes 200 comments posted at once on one video by one member: all 201, none lost', async () => {
    const { videoId } = await newVideo();
    const [fan] = await members(1);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fan.post(`/api/videos/${videoId}/comment`, { content: `Commentaire ${i}` }),
      ),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
    expect(new Set(answers.map((a) => (a.json.item as { id: number }).id)).size).toBe(200);
    expect((await counts(videoId)).comments).toBe(200);
    const listed = (await fan.get(`/api/videos/${videoId}/comments`)).json.items as unknown[];
    expect(listed).toHaveLength(200);
  }, 120_000);

  it('takes comments, replies, likes, views, reports and gifts of 40 members at once: no 5xx, counts exact', async () => {
    const { creator, videoId } = await newVideo();
    const crowd = await members(40);
    // a thread to answer, and coins to give
    const top = await crowd[0].post(`/api/videos/${videoId}/comment`, { content: 'Le premier' });
    expect(top.status).toBe(201);
    const topId = (top.json.item as { id: number }).id;
    for (const m of crowd)
      expect((await m.post('/api/coins/purchase', { email: m.email, packId: 1 })).status).toBe(200);

    const all = await Promise.all(
      crowd.flatMap((m, i) => [
        m.post(`/api/videos/${videoId}/comment`, { content: `Bravo ${i}` }),
        m.post(`/api/videos/${videoId}/comment`, { content: `Réponse ${i}`, parentId: topId }),
        m.post(`/api/videos/${videoId}/like`),
        m.post('/api/videos/views', { videoId }),
        m.post(`/api/report/${videoId}`, { reason: `Signalement ${i}` }),
        m.post('/api/gifts/send', { sender_email: m.email, receiver_pseudo: creator.member.pseudo, gift_id: 3 }),
      ]),
    );
    const statuses = all.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s >= 300)).toEqual([]);

    expect(await counts(videoId)).toEqual({ likes: 40, comments: 1 + 80, views: 40 });
    const thread = (await creator.client.get(`/api/videos/${videoId}/comments`)).json.items as Array<{
      parent_id: number | null;
    }>;
    expect(thread.filter((c) => c.parent_id === topId)).toHaveLength(40);
    const reports = (await admin.get('/api/admin/reports?limit=500')).json as unknown as Array<{ video_id: number }>;
    expect(reports.filter((r) => r.video_id === videoId)).toHaveLength(40);
    const wallet = (await creator.client.get(`/api/coins/balance/${creator.member.email}`)).json;
    expect(wallet.gifts_unclaimed).toBe(40 * 10);
  }, 180_000);
});

/**
 * Each "many members, one video (or one creator)" path alone, every member sending the same write
 * more than once at once (the double click, the retried request): each of these writes goes to a
 * stream of the member's own (`like-<videoId>-<userId>`, `view-<videoId>-<viewerId>`,
 * `report-claim-<videoId>-<reporterId>`, `following-<followerId>`, the sender's `wallet-<id>`; the
 * receiver's wallet is credited by the one gift-credit process, in batches), so members never queue
 * on one another, and a member's own duplicates settle on their stream.
 */
describe('each path alone: many members on one video or one creator at once', () => {
  const CROWD = 50;
  let crowd: Array<Client & { email: string }>;
  beforeAll(async () => {
    crowd = await members(CROWD);
  }, 120_000);
  const noServerError = (answers: Array<{ status: number }>) =>
    expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
  const creatorUnread = async (creator: Client) => {
    await settle();
    return (await creator.get('/api/notifications/unread')).json.unread as number;
  };

  it('likes: every member likes twice at once, then half unlike twice at once: counts exact', async () => {
    const { creator, videoId } = await newVideo();
    const likes = await Promise.all(crowd.flatMap((m) => [1, 2].map(() => m.post(`/api/videos/${videoId}/like`))));
    noServerError(likes);
    expect(likes.filter((a) => a.status !== 200)).toEqual([]);
    expect((await counts(videoId)).likes).toBe(CROWD);
    // one notification per member, never two for a double like
    expect(await creatorUnread(creator.client)).toBe(CROWD);
    const stats = async () =>
      (await creator.client.get(`/api/users/stats/${creator.member.email}`)).json as { total_likes: number };
    expect((await stats()).total_likes).toBe(CROWD);

    const half = crowd.slice(0, CROWD / 2);
    const unlikes = await Promise.all(half.flatMap((m) => [1, 2].map(() => m.delete(`/api/videos/${videoId}/like`))));
    noServerError(unlikes);
    expect(unlikes.filter((a) => a.status !== 200)).toEqual([]);
    expect((await counts(videoId)).likes).toBe(CROWD / 2);
    expect((await stats()).total_likes).toBe(CROWD / 2);
  }, 120_000);

  it('views: every member sends three views at once: each member counted once', async () => {
    const { videoId } = await newVideo();
    const views = await Promise.all(
      crowd.flatMap((m) => [1, 2, 3].map(() => m.post('/api/videos/views', { videoId }))),
    );
    noServerError(views);
    expect(views.filter((a) => a.status >= 300)).toEqual([]);
    expect((await counts(videoId)).views).toBe(CROWD);
  }, 120_000);

  it('reports: every member reports twice at once: one report each, the second refused in French', async () => {
    const { videoId } = await newVideo();
    const reports = await Promise.all(
      crowd.flatMap((m, i) => [1, 2].map((n) => m.post(`/api/report/${videoId}`, { reason: `Motif ${i}.${n}` }))),
    );
    noServerError(reports);
    expect(reports.filter((a) => a.status === 201)).toHaveLength(CROWD);
    const refused = reports.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(CROWD);
    for (const r of refused) expect(r.json).toEqual({ error: 'Tu as déjà signalé cette vidéo.' });
    await settle();
    const listed = (await admin.get('/api/admin/reports?limit=500')).json as unknown as Array<{ video_id: number }>;
    expect(listed.filter((r) => r.video_id === videoId)).toHaveLength(CROWD);
  }, 120_000);

  it('gifts: every member sends three gifts to one creator at once: every coin credited once', async () => {
    const { creator } = await newVideo();
    const senders = crowd.slice(0, 30);
    const balanceOf = async (m: Client & { email: string }) =>
      (await m.get(`/api/coins/balance/${m.email}`)).json.coins_balance as number;
    const before = new Map<string, number>();
    for (const m of senders) {
      expect((await m.post('/api/coins/purchase', { email: m.email, packId: 1 })).status).toBe(200);
      before.set(m.email, await balanceOf(m));
    }
    const unreadBefore = await creatorUnread(creator.client);
    const sends = await Promise.all(
      senders.flatMap((m) =>
        [1, 2, 3].map(() =>
          m.post('/api/gifts/send', { sender_email: m.email, receiver_pseudo: creator.member.pseudo, gift_id: 3 }),
        ),
      ),
    );
    noServerError(sends);
    expect(sends.filter((a) => a.status !== 200)).toEqual([]);
    await settle();
    const wallet = (await creator.client.get(`/api/coins/balance/${creator.member.email}`)).json;
    expect(wallet.gifts_unclaimed).toBe(senders.length * 3 * 10);
    const received = (await creator.client.get(`/api/gifts/received/${creator.member.email}`)).json as unknown as
      unknown[] | { items: unknown[] };
    expect(Array.isArray(received) ? received : received.items).toHaveLength(senders.length * 3);
    expect(await creatorUnread(creator.client)).toBe(unreadBefore + senders.length * 3);
    for (const m of senders) expect(await balanceOf(m)).toBe(before.get(m.email)! - 3 * 10);
  }, 120_000);

  it('follows: every member follows one creator twice at once: followers exact, one notification each', async () => {
    const creator = await registerAndLogin(server.url);
    const follows = await Promise.all(
      crowd.flatMap((m) =>
        [1, 2].map(() =>
          m.post('/api/users/follows/follow', { followerEmail: m.email, followingPseudo: creator.member.pseudo }),
        ),
      ),
    );
    noServerError(follows);
    expect(follows.filter((a) => a.status !== 200)).toEqual([]);
    await settle();
    const stats = (await creator.client.get(`/api/users/stats/${creator.member.email}`)).json;
    expect(stats.followers).toBe(CROWD);
    expect(await creatorUnread(creator.client)).toBe(CROWD);
  }, 120_000);
});

describe('a write that keeps meeting concurrent writes', () => {
  it('answers a French 503 with Retry-After once its retries are spent, and writes nothing', async () => {
    const { videoId } = await newVideo();
    const [fan] = await members(1);
    // every append to a comment's stream conflicts, as if other writers always came first
    const events = server.deps.events;
    const append = events.append.bind(events);
    events.append = (streamId: string, toAppend: NewEvent[], expected) => {
      if (streamId.startsWith('comment-')) return Promise.reject(new WrongExpectedRevisionError(streamId, expected, 0));
      return append(streamId, toAppend, expected);
    };
    const commentsPosted = async () => {
      let n = 0;
      for await (const batch of events.readAll()) n += batch.filter((e) => e.type === 'CommentPosted').length;
      return n;
    };
    try {
      const before = await commentsPosted();
      const r = await fan.post(`/api/videos/${videoId}/comment`, { content: 'Encore un' });
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ error: MESSAGES.busy });
      expect(r.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
      // (a block of comment ids may have been reserved on sequence-comment) no comment was written
      expect(await commentsPosted()).toBe(before);
    } finally {
      events.append = append;
    }
  }, 60_000);
});
