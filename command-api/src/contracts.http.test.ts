import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { z, type ZodTypeAny } from 'zod';
import {
  AdminCoinTransaction,
  AdminGift,
  AdminGiftAnswer,
  AdminRightAnswer,
  AdminUsersAnswer,
  AuditPage,
  CatalogueGift,
  CoinCommandAnswer,
  CoinGift,
  CoinPack,
  CoinTransaction,
  CommentPostedAnswer,
  CommentsAnswer,
  FavoriteAnswer,
  FriendEntry,
  GiftBalanceAnswer,
  InboxEntry,
  IsFollowingAnswer,
  LedgerAuditAnswer,
  LedgerReconciliation,
  LikeAnswer,
  MeAnswer,
  MessageAnswer,
  MessageSentAnswer,
  MessageView,
  NotificationView,
  ProfileAnswer,
  PublicUser,
  RebuildView,
  ReceivedGiftView,
  RegisteredAnswer,
  ReportAnsweredAnswer,
  ReportView,
  STATS_ANSWERS,
  SessionUser,
  SuggestedUser,
  UnreadAnswer,
  UserStats,
  ViewerVideo,
  WalletAnswer,
} from '@evo/contracts';
import { SANCTION_MESSAGES } from '@evo/domain';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from '@evo/infra';
import {
  Client,
  newMember,
  registerAndLogin,
  registrationForm,
  startTestServer,
  type TestServer,
  type Member,
} from './testing/test-server';

/**
 * The answers of the running app parse with the contract's schemas, the ones the web app parses
 * them with: a field the server renames, drops or sends with another type fails here (and in the
 * compiler where the route types its answer). Lists are checked non-empty, so every item is seen.
 */

let server: TestServer;
let admin: Client;
let a: Member;
let b: Member;
let c: Member;

const key = () => ({ 'Idempotency-Key': `k-${Math.random().toString(36).slice(2)}` });
const some = <T extends ZodTypeAny>(item: T) => z.array(item).nonempty();

/** The answer has this status and parses with `schema`; answers the parsed value. */
async function answer<T extends ZodTypeAny>(
  schema: T,
  request: Promise<{ status: number; json: unknown; text: string }>,
  status = 200,
): Promise<z.infer<T>> {
  const r = await request;
  expect(r.status, r.text).toBe(status);
  const parsed = schema.safeParse(r.json);
  expect(parsed.success, `${JSON.stringify(parsed.error?.issues)} in ${r.text.slice(0, 500)}`).toBe(true);
  return parsed.data;
}

/** Video jobs, gift credits and projections have caught up with the log. */
async function settle() {
  await server.settle(30_000);
  const last = (await server.deps.events.lastPosition())!;
  expect(await server.giftCredits!.waitFor(last, 10_000)).toBe(true);
  expect(await server.deps.progress.waitFor(last, 10_000)).toBe(true);
}

beforeAll(async () => {
  server = await startTestServer();
  admin = new Client(server.url);
  await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD });
  [a, b, c] = await Promise.all([0, 1, 2].map(() => registerAndLogin(server.url)));
  await settle();
}, 60_000);
afterAll(() => server.stop());

const videoOf = async (m: Member) =>
  (await answer(ProfileAnswer, a.client.get(`/api/users/profile/${m.member.pseudo}`))).videos[0].id;

describe('the answers of the running app follow the contracts', () => {
  it('identity: register, login, me, a member by pseudo, a profile', async () => {
    const m = newMember();
    const client = new Client(server.url);
    await answer(RegisteredAnswer, client.post('/api/auth/register', await registrationForm(m)), 201);
    await answer(SessionUser, client.post('/api/auth/login', { email: m.email, password: m.password }));
    await answer(MeAnswer, client.get('/api/auth/me'));
    await answer(PublicUser, a.client.get(`/api/users/by-pseudo/${b.member.pseudo}`));
    await settle();
    const profile = await answer(ProfileAnswer, a.client.get(`/api/users/profile/${b.member.pseudo}`));
    // the video every member registers with
    expect(profile.videos.map((v) => v.user_pseudo)).toEqual([b.member.pseudo]);
  });

  it('social and videos: follows, counters, friends, suggestions, the feed, likes, favourites', async () => {
    const follow = { followerEmail: a.member.email, followingPseudo: b.member.pseudo };
    await answer(MessageAnswer, a.client.post('/api/users/follows/follow', follow));
    const video = await videoOf(b);
    await answer(LikeAnswer, a.client.post(`/api/videos/${video}/like`));
    await answer(FavoriteAnswer, a.client.post(`/api/favorite/${video}`));
    await answer(MessageAnswer, a.client.post('/api/videos/views', { videoId: video, userEmail: a.member.email }));
    await settle();
    await answer(UserStats, a.client.get(`/api/users/stats/${b.member.email}`));
    const following = `/api/users/follows/is-following/${a.member.email}/${b.member.pseudo}`;
    expect((await answer(IsFollowingAnswer, a.client.get(following))).isFollowing).toBe(true);
    const byEmail = `/api/users/is-following/${a.member.email}/${b.member.email}`;
    expect((await answer(IsFollowingAnswer, a.client.get(byEmail))).isFollowing).toBe(true);
    await answer(some(FriendEntry), a.client.get(`/api/users/friends/${a.member.email}`));
    // c is not followed by a: suggested, with their videos
    await answer(some(SuggestedUser), a.client.get(`/api/users/with-videos?currentEmail=${a.member.email}`));
    await answer(some(ViewerVideo), a.client.get(`/api/videos/friends-feed/${a.member.email}`));
    await answer(some(ViewerVideo), a.client.get('/api/favorites'));
    await answer(ViewerVideo, a.client.get(`/api/videos/${video}`));
    await answer(LikeAnswer, a.client.delete(`/api/videos/${video}/like`));
  });

  it('comments, messages and notifications', async () => {
    const video = await videoOf(b);
    const comment = { userEmail: a.member.email, userPseudo: a.member.pseudo, content: 'Bravo', parentId: null };
    await answer(CommentPostedAnswer, a.client.post(`/api/videos/${video}/comment`, comment), 201);
    const message = { senderEmail: a.member.email, receiverEmail: b.member.email, content: 'Salut' };
    await answer(MessageSentAnswer, a.client.post('/api/messages', message), 201);
    await settle();
    expect((await answer(CommentsAnswer, b.client.get(`/api/videos/${video}/comments`))).items.length).toBe(1);
    await answer(some(MessageView), b.client.get(`/api/messages/received/${b.member.email}`));
    await answer(some(MessageView), b.client.get(`/api/messages/conversation/${b.member.email}/${a.member.pseudo}`));
    await answer(some(InboxEntry), b.client.get('/api/messages/inbox'));
    const notifications = await answer(
      some(NotificationView),
      b.client.get(`/api/notifications?email=${b.member.email}`),
    );
    await answer(UnreadAnswer, b.client.get('/api/notifications/unread'));
    await answer(MessageAnswer, b.client.put(`/api/notifications/${notifications[0].id}/read`));
  });

  it('coins and gifts: packs, purchases, the balance, history, gifts sent, received and claimed', async () => {
    await answer(some(CoinPack), c.client.get('/api/coins/packs'));
    await answer(CoinCommandAnswer, c.client.post('/api/coins/purchase', { email: c.member.email, packId: 1 }, key()));
    const catalogue = await answer(some(CatalogueGift), c.client.get('/api/gifts/catalog'));
    const gift = { sender_email: c.member.email, receiver_pseudo: b.member.pseudo, gift_id: catalogue[0].id };
    // paid with bought coins: b may withdraw it below
    await answer(CoinCommandAnswer, c.client.post('/api/gifts/send', gift, key()));
    await answer(CoinCommandAnswer, c.client.post('/api/coins/add', { email: c.member.email, amount: 50 }, key()));
    await settle();
    await answer(WalletAnswer, c.client.get(`/api/coins/balance/${c.member.email}`));
    await answer(GiftBalanceAnswer, c.client.get(`/api/gifts/balance/${c.member.email}`));
    await answer(some(CoinTransaction), c.client.get(`/api/coins/transactions/${c.member.email}`));
    await answer(some(CoinGift), b.client.get(`/api/coins/received/${b.member.email}`));
    const received = await answer(some(ReceivedGiftView), b.client.get(`/api/gifts/received/${b.member.email}`));
    await answer(CoinCommandAnswer, b.client.post('/api/gifts/claim', { gift_id: received[0].id }, key()));
    await answer(CoinCommandAnswer, b.client.post('/api/coins/convert-gifts', { user_email: b.member.email }, key()));
    const withdraw = { user_email: b.member.email, amount: 1 };
    await answer(CoinCommandAnswer, b.client.post('/api/coins/withdraw', withdraw, key()));
  });

  it('administration: reports, gifts, members, the audit log, statistics, the ledger, rebuilds', async () => {
    const video = await videoOf(c);
    await answer(MessageAnswer, a.client.post(`/api/report/${video}`, { reason: 'Choquant' }), 201);
    await settle();
    const reports = await answer(some(ReportView), admin.get('/api/admin/reports'));
    const reply = { status: 'ferme', admin_response: SANCTION_MESSAGES[0] };
    await answer(ReportAnsweredAnswer, admin.put(`/api/admin/reports/${reports[0].id}`, reply));
    await answer(MessageAnswer, admin.put(`/api/videos/${video}/visibility`, { status: 'masquée' }));
    const added = await answer(
      AdminGiftAnswer,
      admin.post('/api/admin/gifts', { name: 'Étoile', emoji: '⭐', price: 10, image_url: '' }),
      201,
    );
    const edit = { name: 'Étoile', emoji: '🌟', price: 12, image_url: '' };
    await answer(AdminGiftAnswer, admin.put(`/api/admin/gifts/${added.gift.id}`, edit));
    await settle();
    await answer(some(AdminGift), admin.get('/api/admin/gifts'));
    await answer(AdminUsersAnswer, admin.get('/api/admin/users?q=&page=1&limit=5'));
    await answer(AdminRightAnswer, admin.post('/api/admin/users/grant', { email: c.member.email }));
    await answer(AdminRightAnswer, admin.post('/api/admin/users/revoke', { email: c.member.email }));
    await settle();
    const audit = await answer(AuditPage, admin.get('/api/admin/audit?page=1&limit=5'));
    // newest first: the last two administrator actions
    expect(audit.items.slice(0, 2).map((i) => [i.action, i.target, i.admin_email])).toEqual([
      ['Rôle administrateur retiré', c.member.email, DEMO_ADMIN_EMAIL],
      ['Rôle administrateur accordé', c.member.email, DEMO_ADMIN_EMAIL],
    ]);
    for (const [kind, schema] of Object.entries(STATS_ANSWERS))
      await answer(schema, admin.get(kind === 'general' ? '/api/admin/stats' : `/api/admin/stats/${kind}`));
    await answer(some(AdminCoinTransaction), admin.get('/api/coins/admin/transactions'));
    const ledger = await answer(LedgerAuditAnswer, admin.get(`/api/admin/ledger/${c.member.email}`));
    // c bought a pack, sent a gift and added coins (the coins test), oldest first
    expect([...new Set(ledger.entries.map((e) => e.event_type))]).toEqual(['CoinsPurchased', 'GiftSent', 'CoinsAdded']);
    expect((await answer(LedgerReconciliation, admin.get('/api/admin/ledger/reconcile'))).ok).toBe(true);
    await answer(RebuildView, admin.get('/api/admin/projections/rebuild'));
  });
});
