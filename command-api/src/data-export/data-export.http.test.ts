import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import { DATA_EXPORT_MESSAGES as M, DATA_EXPORT_TTL_MS, dataExportFileName, dataExportStream } from '@evo/domain';
import { Readable } from 'node:stream';
import { DEMO_ADMIN_EMAIL, toNewEvents } from '@evo/infra';
import type { DataExportsAnswer } from '@evo/contracts';
import { AUTH_MESSAGES } from '../http/session';
import { Client, PNG_1PX, demoVideo, type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { eventually } from '../admin/test-helpers';

const t = serverFixture({ admin: true, members: 2 });
const [alice, bob] = t.members;
beforeAll(() => t.settle());

type Archive = Record<string, Uint8Array>;
const json = <T = Record<string, unknown>>(zip: Archive, name: string): T => {
  expect(zip[name], `${name} in the archive`).toBeDefined();
  return JSON.parse(strFromU8(zip[name])) as T;
};

async function list(client: Client, url = '/api/me/data-exports') {
  const r = await client.get(url);
  expect(r.status).toBe(200);
  return r.json as unknown as DataExportsAnswer;
}

/** waits for the export to be ready, answers its download URL */
async function readyUrl(client: Client, id: string, url = '/api/me/data-exports'): Promise<string> {
  let found: DataExportsAnswer['exports'][number] | undefined;
  await eventually(
    async () => {
      found = (await list(client, url)).exports.find((x) => x.id === id);
      return found?.status === 'prete' || found?.status === 'echouee';
    },
    20_000,
    'archive ready',
  );
  expect(found).toMatchObject({ status: 'prete', progress: 100 });
  return found!.download_url!;
}

async function download(client: Client, url: string) {
  const res = await fetch(t.server.url + url, { headers: client.cookie ? { cookie: client.cookie } : {} });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), bytes };
}

describe('"Mes données": the member’s archive, built from the log by a job', () => {
  let url: string;
  let zip: Archive;

  it('holds what the member did, one JSON file per kind, their video byte for byte and a French README', async () => {
    const [aliceVideo, bobVideo] = [
      await t.firstVideoId(alice.client, alice.member.pseudo),
      await t.firstVideoId(bob.client, bob.member.pseudo),
    ];
    const ok = (r: { status: number; text: string }) => expect(r.status, r.text).toBeLessThan(300);
    ok(await alice.client.post('/api/users/follows/follow', { followingPseudo: bob.member.pseudo }));
    ok(await bob.client.post('/api/users/follows/follow', { followingPseudo: alice.member.pseudo }));
    ok(await alice.client.post(`/api/videos/${bobVideo}/comment`, { content: 'Superbe vidéo !' }));
    const comments = (await alice.client.get(`/api/videos/${bobVideo}/comments`)).json.items as Array<{ id: number }>;
    ok(
      await alice.client.post(`/api/videos/${bobVideo}/comment`, {
        content: 'Et la suite ?',
        parentId: comments[0].id,
      }),
    );
    ok(await bob.client.post(`/api/videos/${aliceVideo}/comment`, { content: 'Merci Alice' }));
    ok(await alice.client.post('/api/messages', { receiverEmail: bob.member.email, content: 'Salut Bob' }));
    ok(await bob.client.post('/api/messages', { receiverEmail: alice.member.email, content: 'Salut Alice' }));
    ok(await alice.client.post(`/api/videos/${bobVideo}/like`));
    ok(await alice.client.post(`/api/favorite/${bobVideo}`));
    ok(await alice.client.post(`/api/report/${bobVideo}`));
    /** `from` is given `coins` free coins, then sends `to` the catalogue's gift `giftId` */
    const giveGift = async (from: Member, to: Member, coins: number, giftId: number) => {
      ok(await from.client.post('/api/coins/add', { email: from.member.email, amount: coins }));
      const gift = { sender_email: from.member.email, receiver_pseudo: to.member.pseudo, gift_id: giftId };
      ok(await from.client.post('/api/gifts/send', gift));
    };
    await giveGift(alice, bob, 50, 2);
    await giveGift(bob, alice, 20, 1);
    let received: Array<{ id: number }> = [];
    await eventually(
      async () => {
        received = (await alice.client.get(`/api/gifts/received/${alice.member.email}`))
          .json as unknown as typeof received;
        return received.length === 1;
      },
      5000,
      'gift credited',
    );
    ok(await alice.client.post('/api/gifts/claim', { gift_id: received[0].id }));
    const balance = (await alice.client.get(`/api/coins/balance/${alice.member.email}`)).json.coins_balance;

    // asked twice at once: one build, the other told in French it is under way
    const [a, b] = await Promise.all([
      alice.client.post('/api/me/data-exports'),
      alice.client.post('/api/me/data-exports'),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    const accepted = [a, b].find((r) => r.status === 202)!;
    expect([a, b].find((r) => r.status === 409)!.json).toEqual({ error: M.inProgress });
    const exportId = (accepted.json.export as { id: string }).id;
    expect(accepted.json).toMatchObject({
      message: M.requested,
      export: { status: 'en_preparation', by_admin: false },
    });

    url = await readyUrl(alice.client, exportId);
    expect(url).toBe(`/api/me/data-exports/${exportId}/download`);
    const listed = await list(alice.client);
    expect(listed).toMatchObject({ ttl_days: 7, can_request: true });
    const x = listed.exports[0];
    expect(Date.parse(x.expires_at!) - Date.parse(x.ready_at!)).toBe(DATA_EXPORT_TTL_MS);

    // a notification says it is ready
    await eventually(
      async () =>
        ((await alice.client.get('/api/notifications')).json as unknown as Array<{ type: string }>).some(
          (n) => n.type === 'data_export',
        ),
      5000,
      'ready notification',
    );

    const got = await download(alice.client, url);
    expect(got.status).toBe(200);
    expect(got.type).toBe('application/zip');
    zip = unzipSync(got.bytes);

    expect(strFromU8(zip['LISEZMOI.txt'])).toContain('Tes données sur EVO');
    const profile = json(zip, 'profile.json');
    expect(profile).toMatchObject({ email: alice.member.email, pseudo: alice.member.pseudo, bio: alice.member.bio });
    expect(zip[profile.profile_picture as string]).toEqual(new Uint8Array(PNG_1PX));

    const videos = json<Array<Record<string, unknown>>>(zip, 'videos.json');
    expect(videos).toHaveLength(1);
    expect(videos[0]).toMatchObject({ video_id: aliceVideo, title: alice.member.video_title, visibility: 'publique' });
    expect(Buffer.from(zip[videos[0].file as string]).equals(await demoVideo())).toBe(true);

    const myComments = json<Array<Record<string, unknown>>>(zip, 'comments.json');
    expect(myComments.map((c) => [c.content, c.video_id, c.is_reply])).toEqual([
      ['Superbe vidéo !', bobVideo, false],
      ['Et la suite ?', bobVideo, true],
    ]);
    expect(myComments[1].parent_comment_id).toBe(comments[0].id);

    const { messages } = json<{ messages: Array<Record<string, unknown>> }>(zip, 'messages.json');
    expect(messages.map((m) => [m.direction, m.other_member, m.content])).toEqual([
      ['sent', bob.member.pseudo, 'Salut Bob'],
      ['received', bob.member.pseudo, 'Salut Alice'],
    ]);

    const coins = json<
      Array<{ type: string; amount: number; balance_after: { spendable: number; gifts_unclaimed: number } }>
    >(zip, 'coins.json');
    expect(coins.map((c) => c.type)).toEqual(['ajout', 'cadeau_envoye', 'cadeau_recu', 'recuperation']);
    expect(coins[0]).toMatchObject({ amount: 50, balance_after: { spendable: 50, gifts_unclaimed: 0 } });
    expect(coins[1].amount).toBeLessThan(0);
    expect(coins[1].balance_after.spendable).toBe(50 + coins[1].amount);
    expect(coins[2]).toMatchObject({ amount: 0, balance_after: { gifts_unclaimed: 1 } });
    expect(coins[3].balance_after).toMatchObject({ spendable: balance, gifts_unclaimed: 0 });

    const gifts = json<{ sent: Array<Record<string, unknown>>; received: Array<Record<string, unknown>> }>(
      zip,
      'gifts.json',
    );
    expect(gifts.sent).toEqual([expect.objectContaining({ to: bob.member.pseudo })]);
    expect(gifts.received).toEqual([expect.objectContaining({ from: bob.member.pseudo, coins: 1 })]);
    expect(gifts.received[0].claimed_at).not.toBeNull();

    expect(json(zip, 'follows.json')).toMatchObject({ following: [bob.member.pseudo], followers: [bob.member.pseudo] });
    expect(json<unknown[]>(zip, 'likes.json')).toEqual([
      expect.objectContaining({ video_id: bobVideo, action: 'liked' }),
    ]);
    expect(json<unknown[]>(zip, 'favorites.json')).toEqual([
      expect.objectContaining({ video_id: bobVideo, action: 'added' }),
    ]);
    expect(json<unknown[]>(zip, 'reports.json')).toEqual([expect.objectContaining({ video_id: bobVideo })]);
    const notes = json<Array<{ type: string; sender: string | null }>>(zip, 'notifications.json');
    for (const type of ['follow', 'comment', 'message', 'gift'])
      expect(
        notes.some((n) => n.type === type && n.sender === bob.member.pseudo),
        type,
      ).toBe(true);
    expect(json<Array<{ logins?: unknown }>>(zip, 'logins.json')).toMatchObject({ logins: [expect.anything()] });

    // nothing of the password, nor any other member's email
    const text = Object.entries(zip)
      .filter(([name]) => name.endsWith('.json'))
      .map(([, bytes]) => strFromU8(bytes))
      .join('\n');
    expect(text).not.toMatch(/passwordHash|\$argon2|\$2[aby]\$/);
    expect(text).not.toContain(bob.member.email);
  });

  it('is handed out to its owner only: another member gets 404, a visitor 401, never the file', async () => {
    const other = await download(bob.client, url);
    expect(other.status).toBe(404);
    expect(JSON.parse(strFromU8(other.bytes))).toEqual({ error: M.notFound });
    const visitor = await download(new Client(t.server.url), url);
    expect(visitor.status).toBe(401);
    expect(JSON.parse(strFromU8(visitor.bytes))).toEqual({ error: AUTH_MESSAGES.unauthenticated });
    // an administrator neither, on either route
    expect((await download(t.admin, url)).status).toBe(404);
    const aliceId = await t.userId(alice.member.email);
    const exportId = url.split('/')[4];
    expect((await download(t.admin, `/api/admin/users/${aliceId}/data-exports/${exportId}/download`)).status).toBe(404);
    // a made-up id: the same French 404
    const made = await alice.client.get('/api/me/data-exports/pas-un-id/download');
    expect(made.status).toBe(404);
    expect(made.json).toEqual({ error: M.notFound });
  });

  it('refuses an archive past its 7 days (410), and the sweep removes its file', async () => {
    const aliceId = await t.userId(alice.member.email);
    const stream = dataExportStream(aliceId);
    const exportId = randomUUID();
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    const head = (await t.server.deps.events.readStream(stream)).length - 1;
    const ctx = { userId: aliceId, correlationId: randomUUID(), now: eightDaysAgo };
    await t.server.deps.uploads.files.put('exports', dataExportFileName(exportId), Readable.from([Buffer.from('PK')]));
    await t.server.deps.events.append(
      stream,
      toNewEvents(
        [
          {
            type: 'DataExportRequested',
            data: { exportId, memberId: aliceId, requestedBy: aliceId, byAdmin: false, at: eightDaysAgo.toISOString() },
          },
          {
            type: 'DataExportReady',
            data: {
              exportId,
              memberId: aliceId,
              fileName: dataExportFileName(exportId),
              sizeBytes: 2,
              byAdmin: false,
              readyAt: eightDaysAgo.toISOString(),
              expiresAt: new Date(eightDaysAgo.getTime() + DATA_EXPORT_TTL_MS).toISOString(),
            },
          },
        ],
        stream,
        ctx,
      ),
      head < 0 ? 'no_stream' : head,
    );
    const r = await alice.client.get(`/api/me/data-exports/${exportId}/download`);
    expect(r.status).toBe(410);
    expect(r.json).toEqual({ error: M.expired });
    await t.settle();
    const shown = (await list(alice.client)).exports.find((x) => x.id === exportId);
    expect(shown).toMatchObject({ status: 'expiree', download_url: null });
  });
});

describe('an administrator produces a member’s archive (a request received by post)', () => {
  it('is recorded with the administrator as actor, downloaded by administrators only, and not announced to the member', async () => {
    const bobId = await t.userId(bob.member.email);
    const asked = await t.admin.post(`/api/admin/users/${bobId}/data-exports`);
    expect(asked.status).toBe(202);
    expect(asked.json).toMatchObject({ message: M.requestedAdmin, export: { by_admin: true } });
    const exportId = (asked.json.export as { id: string }).id;
    const adminId = await t.userId(DEMO_ADMIN_EMAIL);
    const recorded = (await t.server.deps.events.readStream(dataExportStream(bobId))).find(
      (e) => e.type === 'DataExportRequested' && (e.data as { exportId: string }).exportId === exportId,
    )!;
    expect(recorded.data).toMatchObject({ memberId: bobId, byAdmin: true });
    expect(recorded.data).toMatchObject({ requestedBy: adminId });
    expect(recorded.metadata.userId).toBe(adminId);

    const url = await readyUrl(t.admin, exportId, `/api/admin/users/${bobId}/data-exports`);
    expect(url).toBe(`/api/admin/users/${bobId}/data-exports/${exportId}/download`);
    const got = await download(t.admin, url);
    expect(got.status).toBe(200);
    expect(json(unzipSync(got.bytes), 'profile.json')).toMatchObject({ email: bob.member.email });

    // the member sees it was made, without a link, cannot download it, and was not notified
    const mine = (await list(bob.client)).exports.find((x) => x.id === exportId);
    expect(mine).toMatchObject({ by_admin: true, status: 'prete', download_url: null });
    expect((await download(bob.client, `/api/me/data-exports/${exportId}/download`)).status).toBe(404);
    expect((await download(bob.client, url)).status).toBe(403);
    await t.settle();
    const notes = (await bob.client.get('/api/notifications')).json as unknown as Array<{ type: string }>;
    expect(notes.some((n) => n.type === 'data_export')).toBe(false);

    // the audit log names the administrator and the member
    const audit = (await t.admin.get('/api/admin/audit')).json.items as Array<Record<string, string>>;
    expect(audit).toContainEqual(
      expect.objectContaining({
        action: 'Archive « Mes données » demandée pour un membre',
        target: bob.member.email,
        admin_email: DEMO_ADMIN_EMAIL,
      }),
    );
  });

  it('answers an unknown member in French (404) and a member on the admin route 403', async () => {
    const r = await t.admin.post(`/api/admin/users/${randomUUID()}/data-exports`);
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: M.memberNotFound });
    expect((await alice.client.post(`/api/admin/users/${await t.userId(bob.member.email)}/data-exports`)).status).toBe(
      403,
    );
    expect((await new Client(t.server.url).post('/api/me/data-exports')).status).toBe(401);
  });
});

describe('after the account’s deletion', () => {
  it('refuses new archives, hands out no earlier one (410) and the erasure removes its file', async () => {
    const carol = await t.member();
    await t.settle();
    const carolId = await t.userId(carol.member.email);
    const asked = await t.admin.post(`/api/admin/users/${carolId}/data-exports`);
    expect(asked.status).toBe(202);
    const exportId = (asked.json.export as { id: string }).id;
    const url = await readyUrl(t.admin, exportId, `/api/admin/users/${carolId}/data-exports`);
    expect(await t.server.deps.uploads.files.stat('exports', dataExportFileName(exportId))).toBeDefined();

    const deleted = await carol.client.request('DELETE', '/api/users/me', { password: carol.member.password });
    expect(deleted.status, deleted.text).toBe(200);
    // her session ended with the account: she is a visitor now
    expect((await carol.client.post('/api/me/data-exports')).status).toBe(401);
    const byAdmin = await t.admin.post(`/api/admin/users/${carolId}/data-exports`);
    expect(byAdmin.status).toBe(410);
    expect(byAdmin.json).toEqual({ error: M.accountDeleted });
    const late = await download(t.admin, url);
    expect(late.status).toBe(410);
    expect(JSON.parse(strFromU8(late.bytes))).toEqual({ error: M.accountDeleted });
    await eventually(
      async () => (await t.server.deps.uploads.files.stat('exports', dataExportFileName(exportId))) === undefined,
      15_000,
      'archive erased with the account',
    );
  });
});
