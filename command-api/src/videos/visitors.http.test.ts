import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import { Client, registerAndLogin, startTestServer, type TestServer } from '../testing/test-server';

/**
 * Issue 30, Major 2: a shared link to a public video is watchable by a visitor (no session): the
 * video, its counters and its comments, read-only; the author named by pseudo, never by address.
 * Everything that acts still needs a session.
 */
describe('a public video for a visitor', () => {
  let server: TestServer;
  let author: Awaited<ReturnType<typeof registerAndLogin>>;
  let videoId: number;
  const visitor = () => new Client(server.url);

  beforeAll(async () => {
    server = await startTestServer();
    author = await registerAndLogin(server.url);
    const profile = await author.client.get(`/api/users/profile/${author.member.pseudo}`);
    videoId = (profile.json.videos as Array<{ id: number }>)[0].id;
    expect(
      (await author.client.post(`/api/videos/${videoId}/comment`, { content: 'Premier commentaire' })).status,
    ).toBe(201);
    await server.settle(60_000);
  }, 120_000);
  afterAll(async () => server?.stop());

  it('answers the video with its counters, its author by pseudo and no email', async () => {
    const r = await visitor().get(`/api/videos/${videoId}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: videoId,
      title: 'Ma première vidéo',
      user_pseudo: author.member.pseudo,
      comments_count: 1,
      liked_by_me: false,
      favorited_by_me: false,
      user_email: '',
      email: '',
      owner_email: '',
    });
    expect(r.text).not.toContain(author.member.email);
    // a member still gets the addresses SPEC names (the owner check, the gift's receiver)
    expect((await author.client.get(`/api/videos/${videoId}`)).json.user_email).toBe(author.member.email);
  });

  it('answers its comments, and its file and poster', async () => {
    const comments = await visitor().get(`/api/videos/${videoId}/comments`);
    expect(comments.status).toBe(200);
    expect(comments.json.items).toMatchObject([{ content: 'Premier commentaire', user_pseudo: author.member.pseudo }]);
    const video = (await visitor().get(`/api/videos/${videoId}`)).json as { file_path: string; poster: string };
    expect((await visitor().get(video.file_path)).status).toBe(200);
    expect(video.poster).toBeTruthy();
    expect((await visitor().get(video.poster)).status).toBe(200);
  });

  it('still needs a session to like, comment, favourite, report, count a view or send a gift', async () => {
    const v = visitor();
    for (const [what, call] of [
      ['like', () => v.post(`/api/videos/${videoId}/like`)],
      ['comment', () => v.post(`/api/videos/${videoId}/comment`, { content: 'Coucou' })],
      ['favourite', () => v.post(`/api/favorite/${videoId}`)],
      ['report', () => v.post(`/api/report/${videoId}`)],
      ['view', () => v.post('/api/videos/views', { videoId })],
      ['gift', () => v.post('/api/gifts/send', { receiver_pseudo: author.member.pseudo, gift_id: 1 })],
    ] as const) {
      const r = await call();
      expect(r.status, what).toBe(401);
    }
    expect((await visitor().get(`/api/videos/${videoId}/comments`)).json.items).toHaveLength(1);
  });

  it('does not show a hidden or unknown video (nor its comments, file or poster)', async () => {
    const hidden = await registerAndLogin(server.url);
    const hiddenId = (
      (await hidden.client.get(`/api/users/profile/${hidden.member.pseudo}`)).json.videos as Array<{ id: number }>
    )[0].id;
    await server.settle(60_000);
    const shown = (await visitor().get(`/api/videos/${hiddenId}`)).json as { file_path: string; poster: string };
    const admin = new Client(server.url);
    expect(
      (await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD })).status,
    ).toBe(200);
    expect((await admin.put(`/api/videos/${hiddenId}/visibility`, { status: 'masquée' })).status).toBe(200);
    await expect.poll(async () => (await visitor().get(`/api/videos/${hiddenId}`)).status).toBe(404);
    expect((await visitor().get(`/api/videos/${hiddenId}`)).json).toEqual({ error: 'Vidéo indisponible.' });
    expect((await visitor().get(`/api/videos/${hiddenId}/comments`)).status).toBe(404);
    expect((await visitor().get(shown.file_path)).status).toBe(404);
    expect((await visitor().get(shown.poster)).status).toBe(404);
    expect((await visitor().get('/api/videos/999999')).status).toBe(404);
  });
});
