import { describe, it, expect } from 'vitest';
import { COMMENT_MESSAGES, MESSAGES, MESSAGING_MESSAGES } from '@evo/domain';
import { Client, newMember, registrationForm } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';

/** Invisible and look-alike text: what members write is normalised, look-alike pseudos are refused. */
const t = serverFixture();

const RLO = '\u202E';
const ZWSP = '\u200B';
const register = async (overrides: Parameters<typeof newMember>[0]) =>
  new Client(t.server.url).post('/api/auth/register', await registrationForm(newMember(overrides)));

describe('invisible characters', () => {
  it('refuses a comment of only zero-width or format characters, and strips them from the others', async () => {
    const author = await t.member();
    const fan = await t.member();
    const v = await t.firstVideoId(fan.client, author.member.pseudo);
    await t.expectRefusals([
      [() => fan.client.post(`/api/videos/${v}/comment`, { content: ZWSP }), 400, COMMENT_MESSAGES.empty],
      [
        () => fan.client.post(`/api/videos/${v}/comment`, { content: `${RLO} \u2066${ZWSP}\uFEFF` }),
        400,
        COMMENT_MESSAGES.empty,
      ],
    ]);
    expect((await fan.client.post(`/api/videos/${v}/comment`, { content: `Bravo ${RLO}!olleh` })).status).toBeLessThan(
      300,
    );
    const items = (await fan.client.get(`/api/videos/${v}/comments`)).json.items as Array<{ content: string }>;
    expect(items.map((c) => c.content)).toEqual(['Bravo !olleh']);
  });

  it('strips them from private messages, and refuses a message empty once stripped', async () => {
    const a = await t.member();
    const b = await t.member();
    await t.follow(a.member.email, b.member.email);
    await t.settle();
    await t.expectRefused(
      () => a.client.post('/api/messages', { receiverEmail: b.member.email, content: `${ZWSP}${RLO}` }),
      400,
      MESSAGING_MESSAGES.empty,
    );
    expect(
      (await a.client.post('/api/messages', { receiverEmail: b.member.email, content: `salut ${RLO}toi` })).status,
    ).toBe(201);
    const thread = (
      await a.client.get(`/api/messages/conversation/${encodeURIComponent(a.member.email)}/${b.member.pseudo}`)
    ).json as unknown as Array<{ content: string }>;
    expect(thread.map((m) => m.content)).toEqual(['salut toi']);
  });

  it('strips them from bios and titles, and refuses a bio empty once stripped', async () => {
    const r = await register({ bio: ZWSP });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe(MESSAGES.bioRequired);
    const m = newMember({ bio: `Ma ${RLO}bio`, video_title: `${ZWSP}Ma vidéo` });
    expect((await new Client(t.server.url).post('/api/auth/register', await registrationForm(m))).status).toBe(201);
    const { client } = await t.member();
    const profile = (await client.get(`/api/users/profile/${m.pseudo}`)).json as {
      user: { bio: string };
      videos: Array<{ title: string }>;
    };
    expect(profile.user.bio).toBe('Ma bio');
    expect(profile.videos[0].title).toBe('Ma vidéo');
  });
});

/** Issue 29 item 9: the attack's payloads, at every entry of member-written text. */
describe('the payloads that reached other members unfiltered', () => {
  const TAGS16 = Array.from({ length: 16 }, (_, i) => String.fromCodePoint(0xe0041 + i)).join('');
  const ZALGO = `Z${'\u0346'.repeat(800)}algo`;
  /** [what is sent, what is stored] */
  const PAYLOADS: Array<[string, string]> = [
    [`Trop bien 😀${TAGS16}`, 'Trop bien 😀'],
    ['nul\u0000caractère', 'nulcaractère'],
    ['\u001B[2J\u001B[31mALERTE\u001B[0m lisez', 'ALERTE lisez'],
    ['\u001B]0;titre\u0007cloche\u0007', 'cloche'],
    ['seul \ud800 demi', 'seul  demi'],
    [ZALGO, `Z${'\u0346'.repeat(4)}algo`],
  ];
  const BLANKS = ['\u2800'.repeat(30), '\u2800 \u200B\u2800', `\u0000\u0007\u001B[0m${TAGS16}`, '\ud800'];

  it('cleans comments and refuses one that renders empty with the empty message', async () => {
    const author = await t.member();
    const fan = await t.member();
    const v = await t.firstVideoId(fan.client, author.member.pseudo);
    for (const [sent] of PAYLOADS)
      expect((await fan.client.post(`/api/videos/${v}/comment`, { content: sent })).status).toBe(201);
    for (const blank of BLANKS)
      await t.expectRefused(
        () => fan.client.post(`/api/videos/${v}/comment`, { content: blank }),
        400,
        COMMENT_MESSAGES.empty,
      );
    await t.settle();
    const items = (await author.client.get(`/api/videos/${v}/comments`)).json.items as Array<{ content: string }>;
    expect(items.map((c) => c.content).sort()).toEqual(PAYLOADS.map(([, stored]) => stored).sort());
  });

  it('cleans private messages and refuses one that renders empty with the empty message', async () => {
    const a = await t.member();
    const b = await t.member();
    await t.follow(a.member.email, b.member.email);
    await t.settle();
    for (const [sent] of PAYLOADS)
      expect((await a.client.post('/api/messages', { receiverEmail: b.member.email, content: sent })).status).toBe(201);
    for (const blank of BLANKS)
      await t.expectRefused(
        () => a.client.post('/api/messages', { receiverEmail: b.member.email, content: blank }),
        400,
        MESSAGING_MESSAGES.empty,
      );
    await t.settle();
    const thread = (
      await b.client.get(`/api/messages/conversation/${encodeURIComponent(b.member.email)}/${a.member.pseudo}`)
    ).json as unknown as Array<{ content: string }>;
    expect(thread.map((m) => m.content).sort()).toEqual(PAYLOADS.map(([, stored]) => stored).sort());
  });

  it('cleans bios, video titles and report reasons, and refuses a bio that renders empty', async () => {
    const blank = await register({ bio: '\u2800\u2800\u2800' });
    expect(blank.status).toBe(400);
    expect(blank.json.error).toBe(MESSAGES.bioRequired);
    const title = await register({ video_title: '\u001B[0m\u2800' });
    expect(title.status).toBe(400);
    expect(title.json.error).toBe(MESSAGES.titleRequired);

    // (a form is sent in UTF-8, which has no lone surrogates: JSON bodies carry those, above)
    const m = newMember({ bio: `Ma bio 😀${TAGS16}\u0007`, video_title: `\u001B[31mTitre\u0000 ${ZALGO}` });
    expect((await new Client(t.server.url).post('/api/auth/register', await registrationForm(m))).status).toBe(201);
    const { client } = await t.member();
    const profile = (await client.get(`/api/users/profile/${m.pseudo}`)).json as {
      user: { bio: string };
      videos: Array<{ id: number; title: string }>;
    };
    expect(profile.user.bio).toBe('Ma bio 😀');
    expect(profile.videos[0].title).toBe(`Titre Z${'\u0346'.repeat(4)}algo`);

    expect(
      (await client.post(`/api/report/${profile.videos[0].id}`, { reason: `Spam\u0000 😀${TAGS16}\u001B[5m` })).status,
    ).toBe(201);
    await t.settle();
    const admin = new Client(t.server.url);
    await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD });
    const reports = (await admin.get('/api/admin/reports?limit=500')).json as unknown as Array<{
      video_id: number;
      reason: string;
    }>;
    expect(reports.find((r) => r.video_id === profile.videos[0].id)?.reason).toBe('Spam 😀');
  });
});

describe('look-alike pseudos', () => {
  it('refuses a pseudo that looks like an existing one: Cyrillic, full-width, I for l', async () => {
    const base = `lea${Date.now().toString(36)}`;
    expect((await register({ pseudo: base })).status).toBe(201);
    const cyrillic = base.replace('e', '\u0435');
    const r = await register({ pseudo: cyrillic });
    expect(r.status).toBe(409);
    expect(r.json.error).toBe(MESSAGES.pseudoLookalike);
    // full-width: NFKC makes it the same pseudo
    const wide = Array.from(base, (c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');
    const w = await register({ pseudo: wide });
    expect(w.status).toBe(409);
    expect(w.json.error).toBe(MESSAGES.pseudoTaken);
    const i = await register({ pseudo: `I${base.slice(1)}` });
    expect(i.status).toBe(409);
    expect(i.json.error).toBe(MESSAGES.pseudoLookalike);
    // a refusal claims nothing: the email of a refused registration is still free
    const m = newMember({ pseudo: cyrillic });
    expect((await new Client(t.server.url).post('/api/auth/register', await registrationForm(m))).status).toBe(409);
    expect(
      (
        await new Client(t.server.url).post(
          '/api/auth/register',
          await registrationForm({ ...m, pseudo: `autre${Date.now().toString(36)}` }),
        )
      ).status,
    ).toBe(201);
  });

  it('lets one of two concurrent look-alike registrations through', async () => {
    // ends with a letter whose capital looks like itself (a final "i" would become "I", which looks like "l")
    const base = `hugo${Date.now().toString(36)}a`;
    const pseudos = [
      base,
      base.replace('o', '\u043E'),
      base.replace('h', '\u04BB'),
      `${base.slice(0, -1)}${base.slice(-1).toUpperCase()}`,
    ];
    const answers = await Promise.all(pseudos.map((pseudo) => register({ pseudo })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409))
      expect([MESSAGES.pseudoTaken, MESSAGES.pseudoLookalike]).toContain(a.json.error);
  });
});
