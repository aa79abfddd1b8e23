import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { io as connect } from 'socket.io-client';
import {
  DEFAULT_GIFT_CATALOGUE,
  DELETED_MEMBER_LABEL,
  DELETION_MESSAGES,
  LEDGER_MESSAGES,
  MESSAGES,
} from '@evo/domain';
import { dumpReadModels } from '@evo/projections/testing/read-model-dump';
import { reconcileLedger } from '../ledger/reconcile';
import { Client, type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';

const t = serverFixture({ admin: true });

/** Everything started has finished: jobs (the erasure among them), gift credits, projections. */
async function settle() {
  for (let i = 0; i < 5; i++) {
    await t.server.settle(30_000);
    const last = (await t.server.deps.events.lastPosition())!;
    expect(await t.server.giftCredits!.waitFor(last, 10_000)).toBe(true);
    expect(await t.server.deps.progress.waitFor(last, 10_000)).toBe(true);
    if ((await t.server.deps.events.lastPosition()) === last) return;
  }
}

const erased = async (userId: string) =>
  (await t.server.deps.events.readStream(`user-${userId}`)).some((e) => e.type === 'MemberErased');
const userIdOf = async (m: Member) => {
  // the member registered in a session of their own
  await t.settle();
  const r = await t.admin.get(`/api/admin/users?q=${encodeURIComponent(m.member.email)}`);
  return (r.json.items as Array<{ id: string }>)[0].id;
};
const deleteAccount = (m: Member | Client, password: string) =>
  ('client' in m ? m.client : m).request('DELETE', '/api/users/me', { password });
const firstVideoId = async (m: Member) =>
  ((await m.client.get(`/api/users/profile/${m.member.pseudo}`)).json.videos as Array<{ id: number }>)[0].id;
const comments = async (who: Member, videoId: number) =>
  (await who.client.get(`/api/videos/${videoId}/comments`)).json.items as Array<{
    id: number;
    parent_id: number | null;
    user_pseudo: string;
    content: string;
    author_deleted?: boolean;
  }>;

/** Every string of a value (a document), depth first. */
const texts = (v: unknown): string[] =>
  typeof v === 'string'
    ? [v]
    : Array.isArray(v)
      ? v.flatMap(texts)
      : v && typeof v === 'object'
        ? Object.values(v).flatMap(texts)
        : [];

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

describe('DELETE /api/users/me (account deletion)', () => {
  it('refuses a wrong or missing password in French and deletes nothing', async () => {
    const m = await t.member();
    const wrong = await deleteAccount(m, 'pas-le-bon');
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe(DELETION_MESSAGES.wrongPassword);
    const missing = await m.client.request('DELETE', '/api/users/me', {});
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe(DELETION_MESSAGES.passwordRequired);
    expect((await m.client.get('/api/auth/me')).status).toBe(200);
    expect((await new Client(t.server.url).request('DELETE', '/api/users/me', { password: 'x' })).status).toBe(401);
  });

  it('refuses while withdrawable coins remain, naming the amount, and deletes once they are withdrawn', async () => {
    const fan = await t.member();
    const creator = await t.member();
    expect((await fan.client.post('/api/coins/purchase', { email: fan.member.email, packId: 1 })).status).toBe(200);
    const sent = await fan.client.post('/api/gifts/send', {
      sender_email: fan.member.email,
      receiver_email: creator.member.email,
      gift_id: 3,
    });
    expect(sent.status, sent.text).toBe(200);
    await settle();
    expect((await creator.client.post('/api/coins/convert-gifts', { user_email: creator.member.email })).status).toBe(
      200,
    );
    const wallet = (await creator.client.get(`/api/coins/balance/${creator.member.email}`)).json;
    const withdrawable = wallet.coins_withdrawable as number;
    // the gift's cost (no fee here), paid with bought coins: all of it the creator's earnings
    expect(withdrawable).toBe(DEFAULT_GIFT_CATALOGUE[2].coinCost);
    const refused = await deleteAccount(creator, creator.member.password);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe(DELETION_MESSAGES.withdrawFirst(withdrawable));
    expect((await creator.client.get('/api/auth/me')).status).toBe(200);
    const w = await creator.client.post('/api/coins/withdraw', {
      user_email: creator.member.email,
      amount: withdrawable,
    });
    expect(w.status, w.text).toBe(200);
    expect((await deleteAccount(creator, creator.member.password)).status).toBe(200);
    await settle();
    const report = await reconcileLedger(t.server.deps.events);
    expect(report.first_violation).toBeNull();
    expect(report.ok).toBe(true);
  });

  it("erases the member everywhere: sessions end, the others' screens and counters forget them, threads keep a placeholder, the ledger reconciles pseudonymously, and a rebuild from scratch holds none of their data", async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const gone = await t.member({
      email: `${tag}.efface@exemple.fr`,
      pseudo: `${tag}efface`,
      bio: `Bio unique ${tag} à effacer`,
      video_title: `Vidéo unique ${tag}`,
    });
    const other = await t.member();
    const secondTab = new Client(t.server.url);
    // an open socket of the member (the app's live updates)
    const socket = connect(t.server.url, {
      transports: ['websocket'],
      forceNew: true,
      extraHeaders: { cookie: gone.client.cookie },
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('sync', () => resolve());
      socket.once('connect_error', reject);
    });
    const socketEnded = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    expect(
      (await secondTab.post('/api/auth/login', { email: gone.member.email, password: gone.member.password })).status,
    ).toBe(200);
    const goneId = await userIdOf(gone);
    const otherVideo = await firstVideoId(other);
    const goneVideo = await firstVideoId(gone);
    const secret = {
      comment: `Commentaire unique ${tag}`,
      reply: `Réponse de moi-même ${tag}`,
      message: `Message privé unique ${tag}`,
    };

    // what the member leaves around the platform
    expect((await gone.client.post('/api/users/follows/follow', { followingPseudo: other.member.pseudo })).status).toBe(
      200,
    );
    expect((await other.client.post('/api/users/follows/follow', { followingPseudo: gone.member.pseudo })).status).toBe(
      200,
    );
    expect((await gone.client.post(`/api/videos/${otherVideo}/like`)).status).toBeLessThan(300);
    expect((await other.client.post(`/api/videos/${goneVideo}/like`)).status).toBeLessThan(300);
    expect((await gone.client.post(`/api/favorite/${otherVideo}`)).status).toBeLessThan(300);
    const top = await gone.client.post(`/api/videos/${otherVideo}/comment`, { content: secret.comment });
    expect(top.status).toBe(201);
    const topId = (top.json.item as { id: number }).id;
    const lonely = await gone.client.post(`/api/videos/${otherVideo}/comment`, { content: secret.reply });
    expect(lonely.status).toBe(201);
    const reply = await other.client.post(`/api/videos/${otherVideo}/comment`, {
      content: 'Merci à toi !',
      parentId: topId,
    });
    expect(reply.status).toBe(201);
    expect((await other.client.post(`/api/videos/${goneVideo}/comment`, { content: 'Jolie vidéo' })).status).toBe(201);
    expect(
      (await gone.client.post('/api/messages', { receiverEmail: other.member.email, content: secret.message })).status,
    ).toBe(201);
    expect((await gone.client.post('/api/coins/add', { email: gone.member.email, amount: 50 })).status).toBe(200);
    expect(
      (
        await gone.client.post('/api/gifts/send', {
          sender_email: gone.member.email,
          receiver_email: other.member.email,
          gift_id: 1,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await other.client.post('/api/coins/purchase', { email: other.member.email, packId: 1 })
      ) // paid coins
      .status,
    ).toBe(200);
    expect(
      (
        await other.client.post('/api/gifts/send', {
          sender_email: other.member.email,
          receiver_email: gone.member.email,
          gift_id: 2,
        })
      ).status,
    ).toBe(200);
    await settle();
    const before = (await other.client.get(`/api/users/stats/${other.member.email}`)).json;
    expect(before).toMatchObject({ followers: 1, following: 1 });

    // the deletion
    const deleted = await deleteAccount(gone, gone.member.password);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json.message).toBe(DELETION_MESSAGES.deleted);
    await settle();
    expect(await erased(goneId)).toBe(true);

    // sessions ended, on every tab, and the open socket with them; the credentials open nothing
    expect(await socketEnded).toBe('io server disconnect');
    expect((await gone.client.get('/api/auth/me')).status).toBe(401);
    expect((await secondTab.get('/api/auth/me')).status).toBe(401);
    const login = await new Client(t.server.url).post('/api/auth/login', {
      email: gone.member.email,
      password: gone.member.password,
    });
    expect(login.status).toBe(401);
    expect(login.json.error).toBe(MESSAGES.badCredentials);

    // the other member's screens
    expect((await other.client.get(`/api/users/profile/${gone.member.pseudo}`)).status).toBe(404);
    expect((await other.client.get(`/api/users/stats/${other.member.email}`)).json).toMatchObject({
      followers: 0,
      following: 0,
    });
    const video = (await other.client.get(`/api/videos/${otherVideo}`)).json;
    expect(video.likes_count).toBe(0);
    expect((await other.client.get(`/api/videos/${goneVideo}`)).status).toBe(404);
    const thread = await comments(other, otherVideo);
    expect(thread.find((c) => c.id === topId)).toMatchObject({
      user_pseudo: DELETED_MEMBER_LABEL,
      content: '',
      author_deleted: true,
    });
    expect(thread.filter((c) => c.parent_id === topId).map((c) => c.content)).toEqual(['Merci à toi !']);
    expect(thread.some((c) => c.content === secret.reply)).toBe(false);
    // the placeholder is still a row of the thread, counted as one
    expect(video.comments_count).toBe(thread.length);
    expect((await other.client.get('/api/messages/inbox')).json).toEqual([]);
    for (const screen of [
      '/api/users/with-videos',
      `/api/users/friends/${other.member.email}`,
      `/api/videos/friends-feed/${other.member.email}`,
      `/api/favorites`,
    ])
      expect(JSON.stringify((await other.client.get(screen)).json), screen).not.toContain(gone.member.pseudo);
    const notifications = (await other.client.get('/api/notifications')).json as unknown;
    expect(JSON.stringify(notifications)).not.toContain(gone.member.pseudo);
    const search = (await other.client.get(`/api/search?q=${tag}`)).json as { members: unknown[]; videos: unknown[] };
    expect(search.members).toEqual([]);
    expect(search.videos).toEqual([]);
    const received = JSON.stringify((await other.client.get(`/api/gifts/received/${other.member.email}`)).json);
    expect(received).toContain(DELETED_MEMBER_LABEL);
    expect(received).not.toContain(gone.member.pseudo);

    // no gift reaches them any more
    const toGone = await other.client.post('/api/gifts/send', {
      sender_email: other.member.email,
      receiver_email: gone.member.email,
      gift_id: 1,
    });
    expect(toGone.status).toBe(404);
    expect(toGone.json.error).toBe(LEDGER_MESSAGES.receiverNotFound);

    // the ledger: balanced, the member's movements kept under their id, their coins forfeited
    const report = await reconcileLedger(t.server.deps.events);
    expect(report.first_violation).toBeNull();
    // 49 of the 50 coins added (a rose sent), and the heart received but not claimed (5 coins, no fee)
    expect(report.totals.platform_forfeits).toBe(49 + 5);
    const transactions = JSON.stringify((await t.admin.get('/api/coins/admin/transactions')).json);
    expect(transactions).toContain(`membre ${goneId}`);
    expect(transactions).not.toContain(gone.member.email);
    const audit = await t.admin.get(`/api/admin/ledger/${encodeURIComponent(`membre ${goneId}`)}`);
    expect(audit.status, audit.text).toBe(200);
    expect(audit.json.user).toEqual({ id: goneId, email: '', pseudo: `membre ${goneId}` });
    const audited = (audit.json.entries as Array<{ event_type: string }>).map((e) => e.event_type);
    expect(audited).toEqual(expect.arrayContaining(['CoinsAdded', 'GiftSent', 'GiftReceived', 'WalletClosed']));

    // rebuilt from scratch, the read models hold nothing of the member, nor does any file of
    // DATA_DIR: the log's copies of their personal fields were encrypted with their key, destroyed
    const rebuild = await t.admin.post('/api/admin/projections/rebuild');
    expect(rebuild.status).toBeLessThan(300);
    for (let i = 0; i < 300 && t.server.deps.projections!.rebuildState().status === 'running'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(t.server.deps.projections!.rebuildState().status).toBe('done');
    await settle();
    const needles = [
      gone.member.email,
      gone.member.pseudo,
      `Bio unique ${tag}`,
      `Vidéo unique ${tag}`,
      ...Object.values(secret),
    ];
    const documents = texts(await dumpReadModels(t.server.deps.read)).join('\n');
    for (const needle of needles) expect(documents, needle).not.toContain(needle);
    for (const file of await filesUnder(t.server.dataDir)) {
      const bytes = await readFile(file);
      for (const needle of needles) expect(bytes.includes(Buffer.from(needle)), `${file}: ${needle}`).toBe(false);
    }
  }, 90_000);

  it("races with the member's own comments and gift sends on another tab: nothing of theirs stays readable, the ledger reconciles", async () => {
    const tag = `course${Date.now().toString(36)}`;
    const gone = await t.member();
    const other = await t.member();
    const tab = new Client(t.server.url);
    expect(
      (await tab.post('/api/auth/login', { email: gone.member.email, password: gone.member.password })).status,
    ).toBe(200);
    const goneId = await userIdOf(gone);
    expect((await gone.client.post('/api/coins/add', { email: gone.member.email, amount: 100 })).status).toBe(200);
    const videoId = await firstVideoId(other);
    const writes = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0
        ? tab.post(`/api/videos/${videoId}/comment`, { content: `${tag} n°${i}` })
        : tab.post('/api/gifts/send', {
            sender_email: gone.member.email,
            receiver_email: other.member.email,
            gift_id: 1,
          }),
    );
    const [deletion, ...answers] = await Promise.all([deleteAccount(gone, gone.member.password), ...writes]);
    expect(deletion.status, deletion.text).toBe(200);
    // each write is done or refused in French, never a server error
    for (const a of answers) {
      expect(a.status, a.text).toBeLessThan(500);
      if (a.status >= 400) expect(typeof a.json.error).toBe('string');
    }
    await settle();
    expect(await erased(goneId)).toBe(true);
    const thread = await comments(other, videoId);
    expect(thread.filter((c) => c.content.includes(tag))).toEqual([]);
    const documents = texts(await dumpReadModels(t.server.deps.read)).join('\n');
    expect(documents).not.toContain(tag);
    expect(documents).not.toContain(gone.member.email);
    const report = await reconcileLedger(t.server.deps.events);
    expect(report.first_violation).toBeNull();
    expect(report.pending_gifts.count).toBe(0);
  }, 90_000);
});
