import { describe, it, expect } from 'vitest';
import { MESSAGES } from '@evo/domain';
import { Client, PNG_1PX, demoVideo, newMember, registrationForm, type Registration } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { UPLOAD_MESSAGES } from '../uploads/upload-store';
import { AUTH_ROUTE_MESSAGES } from './routes';
import { CSRF_MESSAGE } from '../http/csrf';

import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';

const t = serverFixture({ env: { MAX_IMAGE_MB: '1', MAX_VIDEO_MB: '2' } });
/** A registration sent without a session: `m`'s fields, and `files` in place of the usual picture and video. */
const register = async (m: Partial<Registration>, files?: Parameters<typeof registrationForm>[1]) =>
  new Client(t.server.url).post('/api/auth/register', await registrationForm(m, files));

describe('POST /api/auth/register', () => {
  it('creates the member and their first video', async () => {
    const m = newMember();
    const c = new Client(t.server.url);
    const r = await c.post('/api/auth/register', await registrationForm(m));
    expect(r.status).toBe(201);
    expect(r.json.message).toBe(AUTH_ROUTE_MESSAGES.registered);
    await c.post('/api/auth/login', { email: m.email, password: m.password });
    const p = await c.get(`/api/users/profile/${m.pseudo}`);
    expect(p.status).toBe(200);
    expect(p.json.user).toMatchObject({ pseudo: m.pseudo, email: m.email, bio: m.bio });
    const videos = p.json.videos as Array<Record<string, unknown>>;
    expect(videos).toHaveLength(1);
    expect(videos[0]).toMatchObject({
      title: m.video_title,
      user_email: m.email,
      user_pseudo: m.pseudo,
      likes_count: 0,
    });
    expect(String(videos[0].file_path)).toMatch(/^\/uploads\/videos\/[0-9a-f-]{36}\.mp4$/);
    const pic = String((p.json.user as Record<string, unknown>).profile_picture);
    expect(pic).toMatch(/^[0-9a-f-]{36}\.png$/);
    // stored under a generated name and served with nosniff
    const file = await fetch(`${t.server.url}/uploads/profile_pics/${pic}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG_1PX)).toBe(true);
  });

  it.each([
    ['email', MESSAGES.emailRequired],
    ['pseudo', MESSAGES.pseudoRequired],
    ['password', MESSAGES.passwordRequired],
    ['bio', MESSAGES.bioRequired],
    ['video_title', MESSAGES.titleRequired],
  ])('refuses a registration without %s', async (field, error) => {
    const m = { ...newMember(), [field]: undefined };
    await t.expectRefused(async () => register(m), 400, error);
  });

  it.each([
    [{ email: 'pas-un-email' }, MESSAGES.emailInvalid],
    [{ email: `${'a'.repeat(250)}@x.fr` }, MESSAGES.emailTooLong],
    [{ pseudo: 'a' }, MESSAGES.pseudoInvalid],
    [{ pseudo: 'x'.repeat(31) }, MESSAGES.pseudoInvalid],
    [{ password: 'court' }, MESSAGES.passwordTooShort],
    [{ bio: 'b'.repeat(501) }, MESSAGES.bioTooLong],
    [{ video_title: 't'.repeat(151) }, MESSAGES.titleTooLong],
  ])('refuses bad values %o', async (patch, error) => {
    await t.expectRefused(async () => register(newMember(patch)), 400, error);
  });

  it('requires the picture and the video', async () => {
    await t.expectRefusals([
      [async () => register(newMember(), { picture: null }), 400, UPLOAD_MESSAGES.pictureRequired],
      [async () => register(newMember(), { video: null }), 400, UPLOAD_MESSAGES.videoRequired],
    ]);
  });

  it('checks file types by content, not by declared type', async () => {
    const text = Buffer.from('<html>not an image</html>');
    await t.expectRefusals([
      [async () => register(newMember(), { picture: text }), 400, UPLOAD_MESSAGES.notAnImage],
      // a PNG sent as the video
      [async () => register(newMember(), { video: PNG_1PX }), 400, UPLOAD_MESSAGES.notAVideo],
      // a video sent as the picture
      [async () => register(newMember(), { picture: await demoVideo() }), 400, UPLOAD_MESSAGES.notAnImage],
    ]);
  });

  it('answers 413 in French for files over the limits', async () => {
    const bigPng = Buffer.concat([PNG_1PX, Buffer.alloc(1.5 * 1024 * 1024)]);
    await t.expectRefused(
      async () => register(newMember(), { picture: bigPng }),
      413,
      UPLOAD_MESSAGES.imageTooLarge(1),
    );
    const bigVideo = Buffer.concat([await demoVideo(), Buffer.alloc(3 * 1024 * 1024)]);
    await t.expectRefused(
      async () => register(newMember(), { video: bigVideo }),
      413,
      'Fichier trop volumineux (maximum 2 Mo).',
    );
  });

  it('refuses a duplicate email or pseudo, whatever the case', async () => {
    const m = newMember();
    expect((await register(m)).status).toBe(201);
    await t.expectRefusals([
      [async () => register(newMember({ email: m.email.toUpperCase() })), 409, MESSAGES.emailTaken],
      [async () => register(newMember({ pseudo: m.pseudo.toUpperCase() })), 409, MESSAGES.pseudoTaken],
    ]);
  });

  it('gives one success and French errors to concurrent registrations of one pseudo', async () => {
    const pseudo = newMember().pseudo;
    const forms = await Promise.all(Array.from({ length: 8 }, () => registrationForm(newMember({ pseudo }))));
    const results = await Promise.all(forms.map((f) => new Client(t.server.url).post('/api/auth/register', f)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.json).toEqual({ error: MESSAGES.pseudoTaken });
  });

  it('refuses a malformed multipart body without a 5xx', async () => {
    const r = await fetch(`${t.server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nabc',
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error?: unknown }).error).toBeTypeOf('string');
  });
});

describe('POST /api/auth/login, logout, me', () => {
  it('logs in with an httpOnly SameSite=Lax cookie and answers the member', async () => {
    const m = newMember();
    const c = new Client(t.server.url);
    await c.post('/api/auth/register', await registrationForm(m));
    const r = await c.post('/api/auth/login', { email: m.email.toUpperCase(), password: m.password });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ email: m.email, pseudo: m.pseudo, role: 'user', is_admin: false });
    expect(r.json.profile_picture).toMatch(/\.png$/);
    const setCookie = r.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const me = await c.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ email: m.email, pseudo: m.pseudo });
  });

  it('changes the session id at every login and destroys it at logout', async () => {
    const { client, member } = await t.member();
    const first = client.cookie;
    await client.post('/api/auth/login', { email: member.email, password: member.password });
    const second = client.cookie;
    expect(second).not.toBe(first);
    // the first session is gone
    const old = new Client(t.server.url);
    old.cookie = first;
    expect((await old.get('/api/auth/me')).status).toBe(401);
    const out = await client.post('/api/auth/logout');
    expect(out.status).toBe(204);
    const replay = new Client(t.server.url);
    replay.cookie = second;
    expect((await replay.get('/api/auth/me')).status).toBe(401);
  });

  it('refuses wrong credentials with one French message', async () => {
    const m = newMember();
    await register(m);
    await t.expectRefusals([
      [
        () => new Client(t.server.url).post('/api/auth/login', { email: m.email, password: 'mauvais-mot' }),
        401,
        MESSAGES.badCredentials,
      ],
      [
        () => new Client(t.server.url).post('/api/auth/login', { email: 'inconnu@test.fr', password: 'peu-importe' }),
        401,
        MESSAGES.badCredentials,
      ],
      [() => new Client(t.server.url).post('/api/auth/login', { email: m.email }), 400, MESSAGES.passwordRequired],
      [() => new Client(t.server.url).post('/api/auth/login', {}), 400, MESSAGES.emailRequired],
      [() => new Client(t.server.url).post('/api/auth/login', { email: 5, password: [] }), 400, MESSAGES.emailRequired],
      [() => new Client(t.server.url).post('/api/auth/login', '{"email":'), 400, 'Corps de requête JSON invalide.'],
    ]);
  });

  it('rate-limits failed logins per address and account', async () => {
    const m = newMember();
    await register(m);
    for (let i = 0; i < 5; i++) {
      expect(
        (await new Client(t.server.url).post('/api/auth/login', { email: m.email, password: `faux-${i}-xx` })).status,
      ).toBe(401);
    }
    const blocked = await new Client(t.server.url).post('/api/auth/login', { email: m.email, password: m.password });
    expect(blocked.status).toBe(429);
    expect(blocked.json.error).toBe(AUTH_ROUTE_MESSAGES.tooManyAttempts);
  });

  it('answers 401 to /me without a session, and to a forged cookie', async () => {
    expect((await new Client(t.server.url).get('/api/auth/me')).status).toBe(401);
    const forged = new Client(t.server.url);
    forged.cookie = 'evo.sid=abc.def';
    expect((await forged.get('/api/auth/me')).status).toBe(401);
  });
});

describe('POST /api/videos/upload', () => {
  const uploadForm = async (fields: Record<string, string>, video: Buffer | null = null) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('video', new Blob([video ?? (await demoVideo())], { type: 'video/mp4' }), 'x.mp4');
    return form;
  };

  it('adds a video owned by the session user, whatever email the form says', async () => {
    const a = await t.member();
    const b = await t.member();
    const r = await a.client.post(
      '/api/videos/upload',
      await uploadForm({ title: 'Deuxième', description: 'desc', email: b.member.email, pseudo: b.member.pseudo }),
    );
    expect(r.status).toBe(201);
    const mine = await a.client.get(`/api/users/profile/${a.member.pseudo}`);
    const videos = mine.json.videos as Array<{ id: number; title: string }>;
    expect(videos.map((v) => v.title)).toEqual(['Deuxième', a.member.video_title]);
    expect(videos[0].id).toBe((r.json.video as { id: number }).id);
    const theirs = await a.client.get(`/api/users/profile/${b.member.pseudo}`);
    expect(theirs.json.videos).toHaveLength(1);
  });

  it('requires a session, a title and a real video', async () => {
    await t.expectRefused(
      async () => new Client(t.server.url).post('/api/videos/upload', await uploadForm({ title: 'x' })),
      401,
    );
    const { client } = await t.member();
    await t.expectRefusals([
      [async () => client.post('/api/videos/upload', await uploadForm({})), 400, MESSAGES.titleRequired],
      [async () => client.post('/api/videos/upload', await uploadForm({ title: '   ' })), 400, MESSAGES.titleRequired],
      [
        async () => client.post('/api/videos/upload', await uploadForm({ title: 'x' }, Buffer.from('pas une vidéo'))),
        400,
        UPLOAD_MESSAGES.notAVideo,
      ],
    ]);
    const noFile = new FormData();
    noFile.append('title', 'x');
    await t.expectRefused(() => client.post('/api/videos/upload', noFile), 400, UPLOAD_MESSAGES.videoRequired);
  });

  it('processes the video in the background: duration and poster, or a French rejection', async () => {
    const { client, member } = await t.member();
    // an MP4 header followed by garbage: recognised by its first bytes, unreadable by ffprobe
    const fake = Buffer.concat([(await demoVideo()).subarray(0, 32), Buffer.alloc(4096, 7)]);
    await client.post('/api/videos/upload', await uploadForm({ title: 'Cassée' }, fake));
    await t.server.settle(30_000);
    const p = await client.get(`/api/users/profile/${member.pseudo}`);
    const videos = p.json.videos as Array<Record<string, unknown>>;
    const good = videos.find((v) => v.title === member.video_title)!;
    expect(good.processing).toBe('prête');
    expect(good.duration).toBeCloseTo(4, 0);
    expect(String(good.poster)).toMatch(/^\/uploads\/posters\/\d+\.jpg$/);
    expect((await fetch(t.server.url + String(good.poster))).status).toBe(200);
    const bad = videos.find((v) => v.title === 'Cassée')!;
    expect(bad.processing).toBe('rejetée');
    expect(bad.reject_reason).toBe("Le fichier n'a pas pu être lu comme une vidéo.");
    // others never see a rejected video
    const other = await t.member();
    const seen = await other.client.get(`/api/users/profile/${member.pseudo}`);
    expect((seen.json.videos as Array<{ title: string }>).map((v) => v.title)).toEqual([member.video_title]);
  });
});

describe('users read models', () => {
  it('finds a member by pseudo, case-insensitively', async () => {
    const { client, member } = await t.member();
    const r = await client.get(`/api/users/by-pseudo/${member.pseudo.toUpperCase()}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      email: member.email,
      pseudo: member.pseudo,
      bio: member.bio,
      profile_picture: expect.stringMatching(/\.png$/),
    });
    expect((await client.get('/api/users/by-pseudo/personne-ici')).status).toBe(404);
    expect((await client.get('/api/users/profile/personne-ici')).json.error).toBe('Utilisateur introuvable.');
    expect((await new Client(t.server.url).get(`/api/users/profile/${member.pseudo}`)).status).toBe(401);
  });
});

describe('security', () => {
  it('refuses a cross-site state-changing request', async () => {
    const m = newMember();
    await t.expectRefused(
      () =>
        new Client(t.server.url).post(
          '/api/auth/login',
          { email: m.email, password: 'x' },
          { origin: 'http://evil.example' },
        ),
      403,
      CSRF_MESSAGE,
    );
    const same = await new Client(t.server.url).post(
      '/api/auth/login',
      { email: m.email, password: 'xxxxxxxx' },
      { origin: t.server.url },
    );
    expect(same.status).toBe(401);
  });
  it('sends helmet headers and JSON 404s under /api', async () => {
    const r = await new Client(t.server.url).get('/api/nope');
    expect(r.status).toBe(404);
    expect(r.json.error).toBe('Ressource introuvable.');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
  it('has an administrator from ADMIN_EMAIL', async () => {
    const c = new Client(t.server.url);
    const r = await c.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ role: 'admin', is_admin: true });
  });
  it('serves health and readiness', async () => {
    expect((await fetch(`${t.server.url}/health`)).status).toBe(200);
    expect(await (await fetch(`${t.server.url}/ready`)).json()).toEqual({ status: 'ready' });
  });
});
