import { describe, it, expect, beforeAll } from 'vitest';
import { CreatorAnalyticsAnswer, VideoAnalyticsAnswer } from '@evo/contracts';
import { parisDay } from '@evo/projections';
import { Client } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { ANALYTICS_MESSAGES as M } from './routes';

const t = serverFixture({ admin: true, members: 3 });
const [alice, bob, carol] = t.members;
let aliceVideo: number;

const today = () => parisDay(new Date());

beforeAll(async () => {
  aliceVideo = await t.firstVideoId(alice.client, alice.member.pseudo);
  const ok = async (p: Promise<{ status: number; text: string }>) => expect((await p).status, (await p).text).toBe(200);
  // bob and carol follow alice, carol leaves again; both like her video, bob takes his back; both watch it
  for (const fan of [bob, carol]) {
    await ok(fan.client.post('/api/users/follows/follow', { followingPseudo: alice.member.pseudo }));
    await ok(fan.client.post(`/api/videos/${aliceVideo}/like`));
    await ok(fan.client.post('/api/videos/views', { videoId: aliceVideo }));
  }
  await ok(carol.client.post('/api/follows/unfollow', { followingPseudo: alice.member.pseudo }));
  await ok(bob.client.delete(`/api/videos/${aliceVideo}/like`));
  await t.settle();
});

const expectedTotals = {
  views: 2,
  likes: 1,
  likes_given: 2,
  likes_withdrawn: 1,
  comments: 0,
  gifts: 0,
  gift_coins: 0,
  followers_gained: 2,
  followers_lost: 1,
};

describe('creator analytics over HTTP', () => {
  it('answer a creator their own figures per Paris day, with totals, the previous period and the top videos', async () => {
    for (const period of [7, 30, 60]) {
      const r = await alice.client.get(`/api/analytics?period=${period}`);
      expect(r.status, r.text).toBe(200);
      const a = CreatorAnalyticsAnswer.parse(r.json);
      expect(a).toMatchObject({ pseudo: alice.member.pseudo, period, time_zone: 'Europe/Paris', to: today() });
      expect(a.days).toHaveLength(period);
      expect(a.days.at(-1)).toMatchObject({ day: today(), ...expectedTotals });
      expect(a.totals).toEqual(expectedTotals);
      expect(a.previous.views).toBe(0);
      expect(a.top_videos).toEqual([
        expect.objectContaining({ id: aliceVideo, views: 2, likes: 1, comments: 0, status: 'publique' }),
      ]);
    }
    // no period: the last 7 days
    expect((await alice.client.get('/api/analytics')).json.period).toBe(7);
    // her own pseudo named explicitly
    expect((await alice.client.get(`/api/analytics?pseudo=${alice.member.pseudo}`)).json.totals).toEqual(
      expectedTotals,
    );
  });

  it("answer a video's figures to its owner", async () => {
    const r = await alice.client.get(`/api/analytics/videos/${aliceVideo}?period=30`);
    expect(r.status, r.text).toBe(200);
    const v = VideoAnalyticsAnswer.parse(r.json);
    expect(v.video).toMatchObject({ id: aliceVideo, owner_pseudo: alice.member.pseudo, status: 'publique' });
    expect(v.days).toHaveLength(30);
    expect(v.totals).toEqual({ ...expectedTotals, followers_gained: 0, followers_lost: 0 });
  });

  it('follow new events live', async () => {
    const before = (await alice.client.get('/api/analytics')).json.totals as typeof expectedTotals;
    // carol's like again changes nothing; bob likes anew
    expect((await carol.client.post(`/api/videos/${aliceVideo}/like`)).status).toBe(200);
    expect((await bob.client.post(`/api/videos/${aliceVideo}/like`)).status).toBe(200);
    await t.settle();
    const after = (await alice.client.get('/api/analytics')).json.totals as typeof expectedTotals;
    expect(after).toEqual({ ...before, likes: before.likes + 1, likes_given: before.likes_given + 1 });
  });

  it("refuse a member someone else's analytics with a French 403, whether it exists or not", async () => {
    for (const path of [
      `/api/analytics?pseudo=${alice.member.pseudo}`,
      `/api/analytics?pseudo=${alice.member.pseudo.toUpperCase()}`,
      '/api/analytics?pseudo=personne-de-ce-nom',
      `/api/analytics/videos/${aliceVideo}`,
      '/api/analytics/videos/999999',
      '/api/analytics/videos/abc',
    ]) {
      const r = await bob.client.get(path);
      expect([path, r.status, r.json]).toEqual([path, 403, { error: M.notYours }]);
    }
  });

  it("answer an administrator anyone's analytics, 404 for what does not exist", async () => {
    const r = await t.admin.get(`/api/analytics?pseudo=${alice.member.pseudo}&period=60`);
    expect(r.status, r.text).toBe(200);
    expect(CreatorAnalyticsAnswer.parse(r.json).totals.views).toBe(2);
    const v = await t.admin.get(`/api/analytics/videos/${aliceVideo}`);
    expect(v.status, v.text).toBe(200);
    expect(VideoAnalyticsAnswer.parse(v.json).totals.views).toBe(2);
    expect(await t.admin.get('/api/analytics?pseudo=personne-de-ce-nom').then((x) => [x.status, x.json])).toEqual([
      404,
      { error: M.userNotFound },
    ]);
    expect(await t.admin.get('/api/analytics/videos/999999').then((x) => [x.status, x.json])).toEqual([
      404,
      { error: M.videoNotFound },
    ]);
  });

  it('refuse a bad period with a French 400, and a visitor with 401', async () => {
    for (const q of ['period=14', 'period=abc', 'period=', 'period=7&period=30', 'period=07', 'period=-7']) {
      const r = await alice.client.get(`/api/analytics?${q}`);
      expect([q, r.status, r.json]).toEqual([q, 400, { error: M.badPeriod }]);
      const v = await alice.client.get(`/api/analytics/videos/${aliceVideo}?${q}`);
      expect([q, v.status, v.json]).toEqual([q, 400, { error: M.badPeriod }]);
    }
    const visitor = new Client(t.server.url);
    expect((await visitor.get('/api/analytics')).status).toBe(401);
    expect((await visitor.get(`/api/analytics/videos/${aliceVideo}`)).status).toBe(401);
  });
});
