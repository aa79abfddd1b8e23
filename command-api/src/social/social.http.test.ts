import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DEMO_ADMIN_EMAIL } from '@evo/infra';
import { REPORTS, type ReportDoc } from '@evo/projections';
import { DEFAULT_REPORT_REASON, REPORT_MESSAGES, SOCIAL_MESSAGES, VIDEO_MESSAGES } from '@evo/domain';
import {
  Client,
  demoVideo,
  registerAndLogin,
  startTestServer,
  type TestServer,
  type Member,
} from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { SOCIAL_ROUTE_MESSAGES as M } from './http';
import { settledLastPosition } from '../testing/refusals';

const t = serverFixture({ admin: true });

const lastPosition = () => settledLastPosition(t.server);

type Answer = { status: number; json: Record<string, unknown> & { error?: string } };

/** The request succeeds and appends nothing (idempotent repeats). */
async function expectNoChange(send: () => Promise<Answer>, status = 200) {
  const before = await lastPosition();
  const r = await send();
  expect(r.status).toBe(status);
  expect(await lastPosition()).toBe(before);
  return r;
}

const member = () => t.member();
const firstVideoId = async (m: Member) => {
  const p = await m.client.get(`/api/users/profile/${m.member.pseudo}`);
  return (p.json.videos as Array<{ id: number }>).at(-1)!.id;
};
const uploadForm = async (title: string, video?: Buffer) => {
  const form = new FormData();
  form.append('title', title);
  form.append('video', new Blob([video ?? (await demoVideo())], { type: 'video/mp4' }), 'x.mp4');
  return form;
};
const upload = async (m: Member, title: string) => {
  const r = await m.client.post('/api/videos/upload', await uploadForm(title));
  expect(r.status).toBe(201);
  return (r.json.video as { id: number }).id;
};
const follow = async (a: Member, b: Member) => {
  const r = await a.client.post('/api/users/follows/follow', {
    followerEmail: a.member.email,
    followingPseudo: b.member.pseudo,
  });
  expect(r.status).toBe(200);
};
/** two new members, `a` following `b` (seen by both) */
const followingPair = async () => {
  const [a, b] = [await member(), await member()];
  await follow(a, b);
  await t.settle();
  return [a, b];
};
/** two new members: `a`, who looks at `b`'s video `id` */
const viewerAndVideo = async () => {
  const [a, b] = [await member(), await member()];
  return { a, b, id: await firstVideoId(b) };
};
const BAD_IDS = ['abc', '0', '-5', '1.5', '1e3', '99999999999999999999'];

describe('follows', () => {
  it('follows by pseudo: message, is-following (both variants), stats and friends list', async () => {
    const a = await member();
    const b = await member();
    const r = await a.client.post('/api/users/follows/follow', {
      followerEmail: a.member.email.toUpperCase(),
      followingPseudo: b.member.pseudo,
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ message: `✅ Tu suis maintenant ${b.member.pseudo}` });
    expect(r.headers.get('x-evo-position')).toMatch(/^\d+$/);
    expect((await a.client.get(`/api/users/follows/is-following/${a.member.email}/${b.member.pseudo}`)).json).toEqual({
      isFollowing: true,
    });
    expect((await a.client.get(`/api/users/is-following/${a.member.email}/${b.member.email}`)).json).toEqual({
      isFollowing: true,
    });
    expect((await b.client.get(`/api/users/is-following/${b.member.email}/${a.member.email}`)).json).toEqual({
      isFollowing: false,
    });
    expect((await a.client.get(`/api/users/stats/${a.member.email}`)).json).toEqual({
      following: 1,
      followers: 0,
      total_likes: 0,
    });
    expect((await b.client.get(`/api/users/stats/${b.member.email}`)).json).toEqual({
      following: 0,
      followers: 1,
      total_likes: 0,
    });
    const friends = await a.client.get(`/api/users/friends/${a.member.email}`);
    expect(friends.status).toBe(200);
    expect(friends.json).toEqual([
      {
        pseudo: b.member.pseudo,
        email: b.member.email,
        bio: b.member.bio,
        profile_picture: expect.stringMatching(/\.png$/),
        followers: 1,
        videos_count: 1,
        likes: 0,
      },
    ]);
    expect((await b.client.get(`/api/users/friends/${b.member.email}`)).json).toEqual([]);
  });

  it('following twice appends nothing and answers OK; the follower email may be left out', async () => {
    const [a, b] = await followingPair();
    const again = await expectNoChange(() =>
      a.client.post('/api/users/follows/follow', { followingPseudo: b.member.pseudo.toUpperCase() }),
    );
    expect(again.json.message).toBe(`✅ Tu suis maintenant ${b.member.pseudo}`);
    expect((await b.client.get(`/api/users/stats/${b.member.email}`)).json).toMatchObject({ followers: 1 });
  });

  it('follows back by email', async () => {
    const [a, b] = await followingPair();
    const r = await b.client.post('/api/follows/follow', {
      follower_email: b.member.email,
      following_email: a.member.email.toUpperCase(),
    });
    expect(r.status).toBe(200);
    expect(r.json.message).toBe(`✅ Tu suis maintenant ${a.member.pseudo}`);
    expect((await b.client.get(`/api/users/is-following/${b.member.email}/${a.member.email}`)).json).toEqual({
      isFollowing: true,
    });
    await expectNoChange(() => b.client.post('/api/follows/follow', { following_email: a.member.email }));
  });

  it('unfollows; unfollowing someone not followed is a 200 no-op', async () => {
    const [a, b] = await followingPair();
    const r = await a.client.post('/api/follows/unfollow', {
      followerEmail: a.member.email,
      followingPseudo: b.member.pseudo,
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ message: `✅ Tu ne suis plus ${b.member.pseudo}` });
    expect((await a.client.get(`/api/users/follows/is-following/${a.member.email}/${b.member.pseudo}`)).json).toEqual({
      isFollowing: false,
    });
    expect((await b.client.get(`/api/users/stats/${b.member.email}`)).json).toMatchObject({ followers: 0 });
    expect((await a.client.get(`/api/users/friends/${a.member.email}`)).json).toEqual([]);
    await expectNoChange(() =>
      a.client.post('/api/follows/unfollow', { followerEmail: a.member.email, followingPseudo: b.member.pseudo }),
    );
  });

  it('nobody follows themselves', async () => {
    const a = await member();
    await t.expectRefusals([
      [
        () => a.client.post('/api/users/follows/follow', { followingPseudo: a.member.pseudo }),
        400,
        SOCIAL_MESSAGES.selfFollow,
      ],
      [
        () => a.client.post('/api/follows/follow', { following_email: a.member.email }),
        400,
        SOCIAL_MESSAGES.selfFollow,
      ],
    ]);
  });

  it('the follower is always the session user: another member’s email in the body is 403, nothing appended', async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    await t.expectRefusals([
      [
        () =>
          a.client.post('/api/users/follows/follow', {
            followerEmail: b.member.email,
            followingPseudo: c.member.pseudo,
          }),
        403,
        M.forbidden,
      ],
      [
        () => a.client.post('/api/follows/follow', { follower_email: b.member.email, following_email: c.member.email }),
        403,
        M.forbidden,
      ],
    ]);
    await follow(b, c);
    await t.expectRefused(
      () => a.client.post('/api/follows/unfollow', { followerEmail: b.member.email, followingPseudo: c.member.pseudo }),
      403,
      M.forbidden,
    );
    expect((await b.client.get(`/api/users/follows/is-following/${b.member.email}/${c.member.pseudo}`)).json).toEqual({
      isFollowing: true,
    });
  });

  it('an unknown member is 404; bad bodies are 400; no session is 401', async () => {
    const a = await member();
    await t.expectRefusals([
      [() => a.client.post('/api/users/follows/follow', { followingPseudo: 'personne-ici' }), 404, M.userNotFound],
      [() => a.client.post('/api/follows/follow', { following_email: 'personne@ici.fr' }), 404, M.userNotFound],
      [() => a.client.post('/api/follows/unfollow', { followingPseudo: 'personne-ici' }), 404, M.userNotFound],
      [() => a.client.post('/api/users/follows/follow', {}), 400, M.targetPseudoRequired],
      [() => a.client.post('/api/users/follows/follow', { followingPseudo: '   ' }), 400, M.targetPseudoRequired],
      [() => a.client.post('/api/users/follows/follow', { followingPseudo: 5 }), 400, M.targetPseudoRequired],
      [() => a.client.post('/api/users/follows/follow', [1, 2]), 400, M.targetPseudoRequired],
      [() => a.client.post('/api/follows/follow', {}), 400, M.targetEmailRequired],
      [() => a.client.post('/api/follows/unfollow', { followerEmail: 12, followingPseudo: 'x' }), 400, M.badEmail],
      [() => a.client.post('/api/users/follows/follow', '{"followingPseudo":'), 400, 'Corps de requête JSON invalide.'],
      [() => new Client(t.server.url).post('/api/users/follows/follow', { followingPseudo: a.member.pseudo }), 401],
      [() => new Client(t.server.url).post('/api/follows/unfollow', { followingPseudo: a.member.pseudo }), 401],
    ]);
  });

  it('who follows whom is private: another member’s friends or follows are 403; an administrator may read them', async () => {
    const [a, b] = await followingPair();
    // the counters of a profile are public to members, names are not
    expect((await b.client.get(`/api/users/stats/${a.member.email}`)).json).toEqual({
      following: 1,
      followers: 0,
      total_likes: 0,
    });
    expect((await new Client(t.server.url).get(`/api/users/stats/${a.member.email}`)).status).toBe(401);
    for (const url of [
      `/api/users/friends/${a.member.email}`,
      `/api/users/follows/is-following/${a.member.email}/${b.member.pseudo}`,
      `/api/users/is-following/${a.member.email}/${b.member.email}`,
      `/api/videos/friends-feed/${a.member.email}`,
    ]) {
      const r = await b.client.get(url);
      expect(r.status, url).toBe(403);
      expect(r.json.error).toBe(M.forbidden);
      expect((await t.admin.get(url)).status, url).toBe(200);
      expect((await new Client(t.server.url).get(url)).status, url).toBe(401);
    }
    expect((await t.admin.get(`/api/users/friends/${a.member.email.toUpperCase()}`)).json).toEqual([
      expect.objectContaining({ pseudo: b.member.pseudo }),
    ]);
    expect((await t.admin.get(`/api/users/stats/personne@ici.fr`)).status).toBe(404);
    expect((await a.client.get(`/api/users/follows/is-following/${a.member.email}/personne-ici`)).json).toEqual({
      error: M.userNotFound,
    });
    expect((await a.client.get(`/api/users/is-following/${a.member.email}/personne@ici.fr`)).status).toBe(404);
  });
});

describe('suggestions', () => {
  it('lists members with videos, never me nor whom I follow; currentEmail is ignored', async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    const list = async (query = '') => {
      const r = await a.client.get(`/api/users/with-videos?limit=50${query}`);
      expect(r.status).toBe(200);
      return r.json as unknown as Array<{
        email: string;
        pseudo: string;
        profile_picture: string;
        videos: Array<Record<string, unknown>>;
      }>;
    };
    // b and c registered in sessions of their own
    await t.settle();
    let found = await list();
    expect(found.map((u) => u.pseudo)).toEqual(expect.arrayContaining([b.member.pseudo, c.member.pseudo]));
    expect(found.map((u) => u.pseudo)).not.toContain(a.member.pseudo);
    const cs = found.find((u) => u.pseudo === c.member.pseudo)!;
    expect(Object.keys(cs).sort()).toEqual(['email', 'profile_picture', 'pseudo', 'videos']);
    expect(cs.email).toBe(c.member.email);
    expect(cs.videos[0]).toMatchObject({ title: c.member.video_title, user_pseudo: c.member.pseudo });
    // the administrator has no video: never suggested
    expect(found.map((u) => u.email)).not.toContain(DEMO_ADMIN_EMAIL);
    await follow(a, c);
    found = await list(`&currentEmail=${encodeURIComponent(c.member.email)}`);
    expect(found.map((u) => u.pseudo)).not.toContain(c.member.pseudo);
    expect(found.map((u) => u.pseudo)).toContain(b.member.pseudo);
    expect(found.map((u) => u.pseudo)).not.toContain(a.member.pseudo);
    expect(await list('&page=200')).toEqual([]);
  });

  it('refuses bad pages; clamps the limit to 50', async () => {
    const a = await member();
    for (const q of [
      'page=abc',
      'page=0',
      'page=-5',
      'limit=0',
      'limit=abc',
      'page=1.5',
      'page=201',
      'page=99999999',
    ]) {
      const r = await a.client.get(`/api/users/with-videos?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error).toBe(M.badPage);
    }
    const big = await a.client.get('/api/users/with-videos?limit=500');
    expect(big.status).toBe(200);
    expect((big.json as unknown as unknown[]).length).toBeLessThanOrEqual(50);
    expect((await new Client(t.server.url).get('/api/users/with-videos')).status).toBe(401);
  });

  it('gives a profile one page of videos at a time, and refuses bad pages', async () => {
    const a = await member();
    await upload(a, 'deuxième');
    await upload(a, 'troisième');
    const page = (q: string) => a.client.get(`/api/users/profile/${a.member.pseudo}${q}`);
    const first = await page('?limit=2');
    expect((first.json.videos as Array<{ title: string }>).map((v) => v.title)).toEqual(['troisième', 'deuxième']);
    expect(first.json.next_page).toBe(2);
    const second = await page('?limit=2&page=2');
    expect((second.json.videos as unknown[]).length).toBe(1);
    expect(second.json.next_page).toBeNull();
    expect((await page('')).json.next_page).toBeNull();
    for (const q of ['?page=0', '?page=abc', '?limit=-1', '?page=201']) {
      const r = await page(q);
      expect(r.status, q).toBe(400);
      expect(r.json.error).toBe(M.badPage);
    }
  });
});

describe('videos', () => {
  it('answers one video with the viewer’s flags', async () => {
    const { a, b, id } = await viewerAndVideo();
    const r = await a.client.get(`/api/videos/${id}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id,
      title: b.member.video_title,
      user_email: b.member.email,
      user_pseudo: b.member.pseudo,
      user_profile_picture: expect.stringMatching(/\.png$/),
      likes_count: 0,
      comments_count: 0,
      views_count: 0,
      liked_by_me: false,
      favorited_by_me: false,
      status: 'publique',
    });
    for (const key of ['poster', 'duration', 'file_path', 'description', 'created_at'])
      expect(r.json).toHaveProperty(key);
    expect(r.json).not.toHaveProperty('user_id');
    expect(r.json).not.toHaveProperty('_id');
    await t.server.settle(30_000);
    await t.settle();
    const processed = await a.client.get(`/api/videos/${id}`);
    expect(processed.json.poster).toMatch(/^\/uploads\/posters\//);
    // probed by the worker: the demo video of the registration lasts 4 s
    expect(processed.json.duration).toBeCloseTo(4, 0);
  });

  it('refuses bad ids with 400 and unknown videos with 404, appending nothing', async () => {
    const a = await member();
    for (const id of BAD_IDS) {
      await t.expectRefusals([
        [() => a.client.get(`/api/videos/${id}`), 400, M.badVideoId],
        [() => a.client.delete(`/api/videos/${id}`), 400, M.badVideoId],
        [() => a.client.delete(`/api/videos/delete/${id}`), 400, M.badVideoId],
        [() => a.client.post(`/api/videos/${id}/like`), 400, M.badVideoId],
        [() => a.client.delete(`/api/videos/${id}/like`), 400, M.badVideoId],
        [() => a.client.post(`/api/favorite/${id}`), 400, M.badVideoId],
        [() => a.client.post(`/api/report/${id}`), 400, M.badVideoId],
      ]);
    }
    for (const videoId of ['abc', 0, -5, 1.5, null, true, [1], {}]) {
      await t.expectRefused(
        () => a.client.post('/api/videos/views', { videoId, userEmail: a.member.email }),
        400,
        M.badVideoId,
      );
    }
    await t.expectRefused(() => a.client.post('/api/videos/views', {}), 400, M.badVideoId);
    const unknown = 987654;
    await t.expectRefusals([
      [() => a.client.get(`/api/videos/${unknown}`), 404, M.videoNotFound],
      [() => a.client.delete(`/api/videos/${unknown}`), 404, VIDEO_MESSAGES.notFound],
      [() => a.client.post(`/api/videos/${unknown}/like`), 404, VIDEO_MESSAGES.notFound],
      [() => a.client.post(`/api/favorite/${unknown}`), 404, VIDEO_MESSAGES.notFound],
      [() => a.client.post(`/api/report/${unknown}`), 404, VIDEO_MESSAGES.notFound],
      [() => a.client.post('/api/videos/views', { videoId: unknown }), 404, VIDEO_MESSAGES.notFound],
      // a visitor may watch a public video (issue 30), not an unknown one, and may not like
      [() => new Client(t.server.url).get(`/api/videos/${unknown}`), 404, M.videoNotFound],
      [() => new Client(t.server.url).post(`/api/videos/1/like`), 401],
    ]);
  });

  it('likes once per member, unlikes, and counts them on the video and its owner', async () => {
    const { a, b, id } = await viewerAndVideo();
    const liked = await a.client.post(`/api/videos/${id}/like`);
    expect(liked.status).toBe(200);
    expect(liked.json).toEqual({ liked: true, likes_count: 1 });
    const again = await expectNoChange(() => a.client.post(`/api/videos/${id}/like`));
    expect(again.json).toEqual({ liked: true, likes_count: 1 });
    expect((await a.client.get(`/api/videos/${id}`)).json).toMatchObject({ likes_count: 1, liked_by_me: true });
    expect((await b.client.get(`/api/videos/${id}`)).json).toMatchObject({ likes_count: 1, liked_by_me: false });
    expect((await b.client.get(`/api/users/stats/${b.member.email}`)).json).toMatchObject({ total_likes: 1 });
    const unliked = await a.client.delete(`/api/videos/${id}/like`);
    expect(unliked.json).toEqual({ liked: false, likes_count: 0 });
    await expectNoChange(() => a.client.delete(`/api/videos/${id}/like`));
    expect((await b.client.get(`/api/users/stats/${b.member.email}`)).json).toMatchObject({ total_likes: 0 });
  });

  it("counts a member's views of a video once per window (every member's), for the session user only", async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    const id = await firstVideoId(b);
    // 100 displays in a row by one member: one view
    for (let i = 0; i < 100; i++) {
      const r = await a.client.post(
        '/api/videos/views',
        i % 2 ? { videoId: String(id) } : { videoId: id, userEmail: a.member.email },
      );
      expect(r.status).toBe(200);
    }
    expect((await a.client.get(`/api/videos/${id}`)).json.views_count).toBe(1);
    // another member's display counts
    expect((await c.client.post('/api/videos/views', { videoId: id })).status).toBe(200);
    expect((await c.client.get(`/api/videos/${id}`)).json.views_count).toBe(2);
    // concurrent displays by one member count once too
    const d = await member();
    await Promise.all(Array.from({ length: 10 }, () => d.client.post('/api/videos/views', { videoId: id })));
    expect((await d.client.get(`/api/videos/${id}`)).json.views_count).toBe(3);
    await t.expectRefusals([
      [() => a.client.post('/api/videos/views', { videoId: id, userEmail: b.member.email }), 403, M.forbidden],
      [() => new Client(t.server.url).post('/api/videos/views', { videoId: id }), 401],
    ]);
  });

  it('toggles favourites and lists mine', async () => {
    const { a, b, id } = await viewerAndVideo();
    const on = await a.client.post(`/api/favorite/${id}`);
    expect(on.status).toBe(200);
    expect(on.json).toMatchObject({ favorited: true });
    let mine = await a.client.get('/api/favorites');
    expect(mine.json).toEqual([
      expect.objectContaining({ id, title: b.member.video_title, favorited_by_me: true, user_pseudo: b.member.pseudo }),
    ]);
    expect((await b.client.get('/api/favorites')).json).toEqual([]);
    expect((await a.client.get(`/api/videos/${id}`)).json.favorited_by_me).toBe(true);
    const off = await a.client.post(`/api/favorite/${id}`);
    expect(off.json).toMatchObject({ favorited: false });
    mine = await a.client.get('/api/favorites');
    expect(mine.json).toEqual([]);
    expect((await a.client.get('/api/favorites?page=0')).status).toBe(400);
  });

  it('reports a video once while the report is open, with an optional reason', async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    const id = await firstVideoId(b);
    const r = await a.client.post(`/api/report/${id}`);
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ message: '🚩 Signalement envoyé' });
    await t.expectRefusals([
      [() => a.client.post(`/api/report/${id}`, { reason: 'encore' }), 409, REPORT_MESSAGES.alreadyReported],
      [() => c.client.post(`/api/report/${id}`, { reason: 'x'.repeat(501) }), 400, REPORT_MESSAGES.reasonTooLong],
      [() => c.client.post(`/api/report/${id}`, { reason: 42 }), 400, REPORT_MESSAGES.reasonInvalid],
    ]);
    expect((await c.client.post(`/api/report/${id}`, { reason: '  Contenu choquant  ' })).status).toBe(201);
    await t.settle();
    const reports = await t.server.deps.read.collection<ReportDoc>(REPORTS).find({ video_id: id }, { sort: { id: 1 } });
    expect(reports.map((d) => [d.signalant, d.auteur, d.reason, d.status, d.video_title, d.admin_response])).toEqual([
      [a.member.pseudo, b.member.pseudo, DEFAULT_REPORT_REASON, 'en_attente', b.member.video_title, null],
      [c.member.pseudo, b.member.pseudo, 'Contenu choquant', 'en_attente', b.member.video_title, null],
    ]);
    expect(reports[1].id).toBeGreaterThan(reports[0].id);
  });

  it('deletes: owner or administrator only; a deleted video is gone everywhere', async () => {
    const { a, b, id } = await viewerAndVideo();
    const second = await upload(b, 'Deuxième');
    await follow(a, b);
    await a.client.post(`/api/videos/${id}/like`);
    await a.client.post(`/api/favorite/${id}`);
    await t.expectRefusals([
      [() => a.client.delete(`/api/videos/${id}`), 403, VIDEO_MESSAGES.notOwner],
      [() => a.client.delete(`/api/videos/delete/${id}`), 403, VIDEO_MESSAGES.notOwner],
    ]);
    const r = await b.client.delete(`/api/videos/delete/${id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ message: '✅ Vidéo supprimée' });
    await t.expectRefusals([
      [() => b.client.delete(`/api/videos/${id}`), 404, VIDEO_MESSAGES.notFound],
      [() => a.client.get(`/api/videos/${id}`), 404, M.videoUnavailable],
      [() => b.client.get(`/api/videos/${id}`), 404, M.videoUnavailable],
    ]);
    expect((await t.admin.get(`/api/videos/${id}`)).json).toMatchObject({ id, status: 'supprimée' });
    await t.expectRefusals([
      [() => a.client.post(`/api/videos/${id}/like`), 404, VIDEO_MESSAGES.notFound],
      [() => a.client.delete(`/api/videos/${id}/like`), 404, VIDEO_MESSAGES.notFound],
      [() => a.client.post(`/api/favorite/${id}`), 404, VIDEO_MESSAGES.notFound],
      [() => a.client.post(`/api/report/${id}`), 404, VIDEO_MESSAGES.notFound],
      [() => a.client.post('/api/videos/views', { videoId: id }), 404, VIDEO_MESSAGES.notFound],
    ]);
    const feed = await a.client.get(`/api/videos/friends-feed/${a.member.email}`);
    expect((feed.json as unknown as Array<{ id: number }>).map((v) => v.id)).toEqual([second]);
    expect((await a.client.get('/api/favorites')).json).toEqual([]);
    const profile = await a.client.get(`/api/users/profile/${b.member.pseudo}`);
    expect((profile.json.videos as Array<{ id: number }>).map((v) => v.id)).toEqual([second]);
    expect((await b.client.get(`/api/users/stats/${b.member.email}`)).json).toMatchObject({ total_likes: 0 });
    expect((await a.client.get(`/api/users/friends/${a.member.email}`)).json).toEqual([
      expect.objectContaining({ videos_count: 1, likes: 0 }),
    ]);
    // an administrator deletes anyone's video
    const byAdmin = await t.admin.delete(`/api/videos/${second}`);
    expect(byAdmin.status).toBe(200);
    await t.settle();
    expect((await a.client.get(`/api/videos/friends-feed/${a.member.email}`)).json).toEqual([]);
    const suggested = await a.client.get('/api/users/with-videos?limit=50');
    expect((suggested.json as unknown as Array<{ pseudo: string }>).map((u) => u.pseudo)).not.toContain(
      b.member.pseudo,
    );
    await t.expectRefused(() => new Client(t.server.url).delete(`/api/videos/${second}`), 401);
  });

  it('hides a rejected video from everyone but administrators', async () => {
    const a = await member();
    const fake = Buffer.concat([(await demoVideo()).subarray(0, 32), Buffer.alloc(4096, 7)]);
    const r = await a.client.post('/api/videos/upload', await uploadForm('Cassée', fake));
    const id = (r.json.video as { id: number }).id;
    await t.server.settle(30_000);
    await t.expectRefused(() => a.client.get(`/api/videos/${id}`), 404, M.videoUnavailable);
    expect((await t.admin.get(`/api/videos/${id}`)).json).toMatchObject({ id, processing: 'rejetée' });
    await t.expectRefused(() => a.client.post(`/api/videos/${id}/like`), 404, VIDEO_MESSAGES.notFound);
    // its owner can still delete it
    expect((await a.client.delete(`/api/videos/${id}`)).status).toBe(200);
  });
});

describe('friends feed', () => {
  it('lists the videos of whom I follow, newest first, page by page', async () => {
    const a = await member();
    const b = await member();
    const c = await member();
    const d = await member();
    await follow(a, b);
    await follow(a, c);
    const ids = [await firstVideoId(b), await firstVideoId(c)];
    ids.push(await upload(b, 'B2'));
    ids.push(await upload(c, 'C2'));
    ids.push(await upload(b, 'B3'));
    await upload(d, 'not followed');
    const newest = [...ids].reverse();
    // b's and c's uploads, in their sessions
    await t.settle();
    const all = await a.client.get(`/api/videos/friends-feed/${a.member.email}`);
    expect(all.status).toBe(200);
    const list = all.json as unknown as Array<Record<string, unknown>>;
    // the first videos were uploaded at registration: b's before c's
    expect(list.map((v) => v.id)).toEqual(newest);
    expect(list[0]).toMatchObject({
      title: 'B3',
      user_pseudo: b.member.pseudo,
      user_email: b.member.email,
      liked_by_me: false,
    });
    expect(list[0]).toHaveProperty('user_profile_picture');
    const page2 = await a.client.get(`/api/videos/friends-feed/${a.member.email.toUpperCase()}?page=2&limit=2`);
    expect((page2.json as unknown as Array<{ id: number }>).map((v) => v.id)).toEqual(newest.slice(2, 4));
    expect((await d.client.get(`/api/videos/friends-feed/${d.member.email}`)).json).toEqual([]);
    expect((await a.client.get(`/api/videos/friends-feed/${a.member.email}?limit=abc`)).json).toEqual({
      error: M.badPage,
    });
    expect((await a.client.get(`/api/videos/friends-feed/${a.member.email}?limit=1000`)).status).toBe(200);
  });
});

// many members log in: a server of its own, so the per-address login limit (50 / 15 min) holds
describe('concurrency', () => {
  let own: TestServer;
  beforeAll(async () => {
    own = await startTestServer();
  });
  afterAll(() => own.stop());
  const join = () => registerAndLogin(own.url);
  const videoOf = async (m: Member) => {
    const p = await m.client.get(`/api/users/profile/${m.member.pseudo}`);
    return (p.json.videos as Array<{ id: number }>)[0].id;
  };

  it('20 concurrent likes of one video by the same member count once', async () => {
    const a = await join();
    const b = await join();
    const id = await videoOf(b);
    const answers = await Promise.all(Array.from({ length: 20 }, () => a.client.post(`/api/videos/${id}/like`)));
    for (const r of answers) expect(r.status).toBe(200);
    expect((await a.client.get(`/api/videos/${id}`)).json.likes_count).toBe(1);
    const liker = await own.deps.read.collection('users').findOne({ email: a.member.email });
    expect(await own.deps.events.readStream(`like-${id}-${liker!._id}`)).toHaveLength(1);
  });

  it('20 members liking one video concurrently count 20', async () => {
    const owner = await join();
    const id = await videoOf(owner);
    const fans: Member[] = [];
    for (let i = 0; i < 4; i++) fans.push(...(await Promise.all(Array.from({ length: 5 }, join))));
    const answers = await Promise.all(fans.map((f) => f.client.post(`/api/videos/${id}/like`)));
    for (const r of answers) expect(r.status).toBe(200);
    // the fans' likes, read by the owner (the 21 registrations' videos may still be processing)
    await own.settle(30_000, { jobs: false });
    expect((await owner.client.get(`/api/videos/${id}`)).json.likes_count).toBe(20);
    expect((await owner.client.get(`/api/users/stats/${owner.member.email}`)).json).toMatchObject({ total_likes: 20 });
  }, 120_000);

  it('concurrent follows of one member by one follower count once', async () => {
    const a = await join();
    const b = await join();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => a.client.post('/api/follows/follow', { following_email: b.member.email })),
    );
    for (const r of answers) expect(r.status).toBe(200);
    await own.settle(30_000, { jobs: false });
    expect((await b.client.get(`/api/users/stats/${b.member.email}`)).json).toMatchObject({ followers: 1 });
  });
});
