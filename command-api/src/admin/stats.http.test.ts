import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll } from 'vitest';
import { userDecider, userStream, videoDecider, videoStream } from '@evo/domain';
import { DEMO_ADMIN_EMAIL, handleCommand, type CommandContext } from '@evo/infra';
import { registerMember, uploadVideo, viewVideo } from '@evo/projections/testing/member-commands';
import { serverFixture } from '../testing/server-fixture';

const t = serverFixture({ admin: true });
const DAY = 86_400_000;
const now = Date.now();
const daysAgo = (d: number, minutes = 0) => new Date(now - d * DAY + minutes * 60_000);

/**
 * A history with known figures, written through the command handlers at controlled times around
 * now, beside what a fresh t.server has (the administrator, registered and logged in now, and the
 * 8 seeded gifts):
 * - m1 registered 40 days ago, logged in 35 days ago, one video (exactly 40 days ago) viewed 4 times;
 * - m2 registered 10 days ago, logged in 3 days ago, two videos (10 days ago), one hidden 2 days ago;
 * - m3 registered 5 days ago, never logged in.
 */
async function writeHistory() {
  const { events } = t.server.deps;
  const ids: string[] = [];
  const c = (userId: string, at: Date): CommandContext => ({ userId, correlationId: randomUUID(), now: at });
  const register = async (n: number, at: Date) => {
    const userId = randomUUID();
    ids.push(userId);
    await registerMember(
      events,
      { userId, email: `stats${n}@test.fr`, pseudo: `stats${n}`, bio: 'b', profilePicture: 'default.png' },
      c(userId, at),
    );
    return userId;
  };
  const upload = (ownerId: string, videoId: number, at: Date) =>
    uploadVideo(
      events,
      { videoId, ownerId, title: `Stats ${videoId}`, filePath: '/uploads/videos/x.mp4' },
      c(ownerId, at),
    );
  const m1 = await register(1, daysAgo(40, -5));
  await upload(m1, 9001, daysAgo(40));
  for (let i = 0; i < 4; i++) await viewVideo(events, 9001, m1, c(m1, daysAgo(39)));
  await handleCommand(events, userStream(m1), userDecider, { type: 'RecordLogin', userId: m1 }, c(m1, daysAgo(35)));
  const m2 = await register(2, daysAgo(10));
  await upload(m2, 9002, daysAgo(10, 5));
  await upload(m2, 9003, daysAgo(10, 6));
  await handleCommand(events, userStream(m2), userDecider, { type: 'RecordLogin', userId: m2 }, c(m2, daysAgo(3)));
  const adminId = (await t.server.deps.read.collection('users').findOne({ email_lc: DEMO_ADMIN_EMAIL }))!._id as string;
  await handleCommand(
    events,
    videoStream(9003),
    videoDecider,
    {
      type: 'SetVideoVisibility',
      videoId: 9003,
      visibility: 'masquée',
      requesterId: adminId,
      requesterIsAdmin: true,
      now: daysAgo(2),
    },
    c(adminId, daysAgo(2)),
  );
  await register(3, daysAgo(5));
}

beforeAll(async () => {
  await writeHistory();
  await t.settle();
});

const get = async (path: string) => {
  const r = await t.admin.get(path);
  expect(r.status, r.text).toBe(200);
  return r.json;
};

describe('statistics over HTTP', () => {
  it('answer the figures of the product entities, computed by the projections', async () => {
    expect(await get('/api/admin/stats')).toEqual({ users: 4, videos: 3, gifts: 0, coins: 0, messages: 0 });
    expect(await get('/api/admin/stats/users')).toEqual({
      total_users: 4,
      validated_users: 3,
      new_users_30d: 3,
      recent_logins_7d: 2,
    });
    expect(await get('/api/admin/stats/videos')).toEqual({
      total_videos: 3,
      public_videos: 2,
      hidden_videos: 1,
      deleted_videos: 0,
      rejected_videos: 0,
    });
    expect(await get('/api/admin/stats/advanced')).toEqual({
      // one public video each: the earlier member first
      top_creator: { user_email: 'stats1@test.fr', video_count: 1 },
      top_video: { title: 'Stats 9001', views: 4 },
      total_reports: 0,
      public_videos: 2,
      deleted_videos: 0,
      // 3 videos over the 41 days from the first upload's day to today
      avg_videos_per_day: 0.07,
    });
    expect(await get('/api/admin/stats/messages')).toEqual({ total_messages: 0, private_messages: 0 });
    expect(await get('/api/admin/stats/gifts')).toEqual({ gifts_sent: 0, gifts_catalog: 8 });
    expect(await get('/api/admin/stats/coins')).toEqual({
      coins_bought: 0,
      coins_added: 0,
      coins_in_balances: 0,
      coins_in_unclaimed_gifts: 0,
      coins_in_transit: 0,
      coins_withdrawn: 0,
      fees: 0,
      purchases: 0,
    });
  });

  it('answer them as of a date in the middle of the history', async () => {
    const asOf = encodeURIComponent(daysAgo(20).toISOString());
    expect(await get(`/api/admin/stats?asOf=${asOf}`)).toEqual({
      users: 1,
      videos: 1,
      gifts: 0,
      coins: 0,
      messages: 0,
    });
    // windows end at the date: registered within 30 days before it, no login within the 7 days before it
    expect(await get(`/api/admin/stats/users?asOf=${asOf}`)).toEqual({
      total_users: 1,
      validated_users: 1,
      new_users_30d: 1,
      recent_logins_7d: 0,
    });
    expect(await get(`/api/admin/stats/videos?asOf=${asOf}`)).toEqual({
      total_videos: 1,
      public_videos: 1,
      hidden_videos: 0,
      deleted_videos: 0,
      rejected_videos: 0,
    });
    expect(await get(`/api/admin/stats/advanced?asOf=${asOf}`)).toMatchObject({
      top_creator: { user_email: 'stats1@test.fr', video_count: 1 },
      top_video: { title: 'Stats 9001', views: 4 },
      avg_videos_per_day: 0.05,
    });
    // the catalogue was seeded when this t.server started
    expect(await get(`/api/admin/stats/gifts?asOf=${asOf}`)).toEqual({ gifts_sent: 0, gifts_catalog: 0 });
    // as of now: what the live projection says
    expect(await get(`/api/admin/stats/users?asOf=${encodeURIComponent(new Date().toISOString())}`)).toEqual(
      await get('/api/admin/stats/users'),
    );
  });

  it('follow new events at once', async () => {
    const m = await t.admin.put('/api/videos/9003/visibility', { status: 'publique' });
    expect(m.status).toBe(200);
    expect(await get('/api/admin/stats/videos')).toMatchObject({ public_videos: 3, hidden_videos: 0 });
    expect(await get('/api/admin/stats/advanced')).toMatchObject({
      top_creator: { user_email: 'stats2@test.fr', video_count: 2 },
    });
  });

  it('refuse a bad date with 400 "Date invalide."', async () => {
    for (const bad of ['hier', '', '2026-13-45', 'asOf=2026-01-01&asOf=2026-01-02']) {
      const path = bad.startsWith('asOf')
        ? `/api/admin/stats?${bad}`
        : `/api/admin/stats?asOf=${encodeURIComponent(bad)}`;
      const r = await t.admin.get(path);
      expect(r.status, path).toBe(400);
      expect(r.json).toEqual({ error: 'Date invalide.' });
    }
  });
});
