import { describe, it, expect, vi } from 'vitest';
import { NOTIFICATION_MESSAGES } from '@evo/domain';
import { Client, type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';

const t = serverFixture();

type Notification = {
  id: string;
  type: string;
  sender_email: string;
  sender_pseudo: string;
  message: string;
  video_id: number;
  seen: 0 | 1;
  created_at: string;
};
const list = async (m: Member) => (await m.client.get('/api/notifications')).json as unknown as Notification[];
const unread = async (m: Member) => (await m.client.get('/api/notifications/unread')).json.unread as number;

/** bob gets a follow, a like and a comment from alice */
async function threeNotifications() {
  const alice = await t.member();
  const bob = await t.member();
  const v = await t.firstVideoId(bob.client, bob.member.pseudo);
  // a notification's id is the position of its cause, in decimal
  const follow = String(await t.follow(alice.member.email, bob.member.email));
  const like = String(await t.like(alice.member.email, v, bob.member.email));
  const comment = (await alice.client.post(`/api/videos/${v}/comment`, { content: 'Top' })).headers.get(
    'x-evo-position',
  )!;
  await t.settle();
  return { alice, bob, v, ids: { follow, like, comment } };
}

describe('GET /api/notifications', () => {
  it('lists the session user’s notifications newest first, with the fields of the product specification', async () => {
    const { alice, bob, v, ids } = await threeNotifications();
    const sender = {
      sender_email: alice.member.email,
      sender_pseudo: alice.member.pseudo,
      seen: 0,
      created_at: expect.any(String),
    };
    expect(await list(bob)).toEqual([
      {
        id: ids.comment,
        type: 'comment',
        message: `${alice.member.pseudo} a commenté ta vidéo`,
        video_id: v,
        ...sender,
      },
      { id: ids.like, type: 'like', message: `${alice.member.pseudo} a aimé ta vidéo`, video_id: v, ...sender },
      {
        id: ids.follow,
        type: 'follow',
        message: `${alice.member.pseudo} s'est abonné(e) à toi`,
        video_id: 0,
        ...sender,
      },
    ]);
    expect(await list(alice)).toEqual([]);
    const own = await bob.client.get(`/api/notifications?email=${encodeURIComponent(bob.member.email.toUpperCase())}`);
    expect(own.json).toEqual(await list(bob));
    expect(await unread(bob)).toBe(3);
    const page = await bob.client.get(`/api/notifications?limit=1&before=${ids.comment}`);
    expect((page.json as unknown as Notification[]).map((n) => n.id)).toEqual([ids.like]);
  });

  it('refuses someone else’s notifications and visitors', async () => {
    const { alice, bob } = await threeNotifications();
    const r = await alice.client.get(`/api/notifications?email=${encodeURIComponent(bob.member.email)}`);
    expect(r.status).toBe(403);
    expect(r.json.error).toBe('Accès refusé.');
    expect((await alice.client.get('/api/notifications?email=x&email=y')).status).toBe(403);
    expect((await new Client(t.server.url).get('/api/notifications')).status).toBe(401);
    expect((await new Client(t.server.url).get('/api/notifications/unread')).status).toBe(401);
  });
});

describe('notification spam', () => {
  it('like/unlike and follow/unfollow loops give the target one notification of each kind', async () => {
    const alice = await t.member();
    const bob = await t.member();
    const v = await t.firstVideoId(bob.client, bob.member.pseudo);
    for (let i = 0; i < 10; i++) {
      expect((await alice.client.post(`/api/videos/${v}/like`)).status).toBe(200);
      expect((await alice.client.delete(`/api/videos/${v}/like`)).status).toBe(200);
      expect(
        (await alice.client.post('/api/users/follows/follow', { followingPseudo: bob.member.pseudo })).status,
      ).toBeLessThan(300);
      expect(
        (
          await alice.client.post('/api/follows/unfollow', {
            followerEmail: alice.member.email,
            followingPseudo: bob.member.pseudo,
          })
        ).status,
      ).toBe(200);
    }
    await t.settle();
    expect((await list(bob)).map((n) => n.type)).toEqual(['follow', 'like']);
    expect(await unread(bob)).toBe(2);
    // someone else still notifies
    const carol = await t.member();
    expect((await carol.client.post(`/api/videos/${v}/like`)).status).toBe(200);
    await t.settle();
    expect(await unread(bob)).toBe(3);
  });
});

describe('reading and deleting notifications', () => {
  it('marks one read once; the unread count follows', async () => {
    const { bob, ids } = await threeNotifications();
    const r = await bob.client.put(`/api/notifications/${ids.like}/read`);
    expect(r.status).toBe(200);
    expect(r.json.message).toBe(NOTIFICATION_MESSAGES.read);
    expect(await unread(bob)).toBe(2);
    expect((await list(bob)).find((n) => n.id === ids.like)?.seen).toBe(1);
    // a second mark answers 200 and appends nothing
    const before = await t.lastPosition();
    expect((await bob.client.put(`/api/notifications/${ids.like}/read`)).status).toBe(200);
    expect(await t.lastPosition()).toBe(before);
    expect(await unread(bob)).toBe(2);
  });

  it('deletes one; deleting an unread one lowers the count; a deleted one is gone', async () => {
    const { bob, ids } = await threeNotifications();
    await bob.client.put(`/api/notifications/${ids.follow}/read`);
    const d = await bob.client.delete(`/api/notifications/${ids.comment}`);
    expect(d.status).toBe(200);
    expect(d.json.message).toBe(NOTIFICATION_MESSAGES.deleted);
    expect(await unread(bob)).toBe(1);
    expect((await bob.client.delete(`/api/notifications/${ids.follow}`)).status).toBe(200);
    expect(await unread(bob)).toBe(1);
    expect((await list(bob)).map((n) => n.id)).toEqual([ids.like]);
    await t.expectRefusals([
      [() => bob.client.delete(`/api/notifications/${ids.comment}`), 404, NOTIFICATION_MESSAGES.notFound],
      [() => bob.client.put(`/api/notifications/${ids.comment}/read`), 404, NOTIFICATION_MESSAGES.notFound],
    ]);
  });

  it('marks everything read; the count never goes below 0', async () => {
    const { alice, bob, ids } = await threeNotifications();
    await bob.client.put(`/api/notifications/${ids.follow}/read`);
    const r = await bob.client.put('/api/notifications/read-all');
    expect(r.status).toBe(200);
    expect(r.json.message).toBe(NOTIFICATION_MESSAGES.allRead);
    expect(await unread(bob)).toBe(0);
    expect((await list(bob)).every((n) => n.seen === 1)).toBe(true);
    await bob.client.put('/api/notifications/read-all');
    await bob.client.put(`/api/notifications/${ids.like}/read`);
    await bob.client.delete(`/api/notifications/${ids.like}`);
    expect(await unread(bob)).toBe(0);
    // a later notification is unread again
    expect(
      (await alice.client.post('/api/messages', { receiverEmail: bob.member.email, content: 'Coucou' })).status,
    ).toBe(201);
    await t.settle();
    expect(await unread(bob)).toBe(1);
    expect((await list(bob))[0]).toMatchObject({
      type: 'message',
      seen: 0,
      message: `${alice.member.pseudo} t'a envoyé un message`,
    });
  });

  it('refuses someone else’s notification (403), unknown ones (404), visitors (401), appending nothing', async () => {
    const { alice, bob, ids } = await threeNotifications();
    await t.expectRefusals([
      [() => alice.client.put(`/api/notifications/${ids.like}/read`), 403, 'Accès refusé.'],
      [() => alice.client.delete(`/api/notifications/${ids.like}`), 403, 'Accès refusé.'],
      [() => bob.client.put('/api/notifications/999999/read'), 404, NOTIFICATION_MESSAGES.notFound],
      [() => bob.client.delete('/api/notifications/abc'), 404, NOTIFICATION_MESSAGES.notFound],
      [() => bob.client.put('/api/notifications/0/read'), 404, NOTIFICATION_MESSAGES.notFound],
      // ids as long as an EventStoreDB position (2^128 - 1), and beyond it
      [
        () => bob.client.put('/api/notifications/340282366920938463463374607431768211455/read'),
        404,
        NOTIFICATION_MESSAGES.notFound,
      ],
      [
        () => bob.client.delete('/api/notifications/340282366920938463463374607431768211456'),
        404,
        NOTIFICATION_MESSAGES.notFound,
      ],
      [() => bob.client.put(`/api/notifications/${ids.like}0/read`), 404, NOTIFICATION_MESSAGES.notFound],
    ]);
    // a position whose event notifies nobody (bob's own login) is no notification
    const login = await bob.client.post('/api/auth/login', { email: bob.member.email, password: bob.member.password });
    await t.expectRefusals([
      [
        () => bob.client.put(`/api/notifications/${login.headers.get('x-evo-position')}/read`),
        404,
        NOTIFICATION_MESSAGES.notFound,
      ],
      [() => new Client(t.server.url).put(`/api/notifications/${ids.like}/read`), 401],
      [() => new Client(t.server.url).put('/api/notifications/read-all'), 401],
    ]);
    expect(await unread(bob)).toBe(3);
  });

  it('reads the log only at the position of a notification the read models know', async () => {
    const { bob, ids } = await threeNotifications();
    const login = await bob.client.post('/api/auth/login', { email: bob.member.email, password: bob.member.password });
    const readAll = vi.spyOn(t.server.deps.events, 'readAll');
    // notificationRecipients reads the one event at the id's position
    const lookups = () => readAll.mock.calls.filter(([, batchSize]) => batchSize === 1);
    try {
      await t.expectRefusals([
        [
          () => bob.client.put(`/api/notifications/${login.headers.get('x-evo-position')}/read`),
          404,
          NOTIFICATION_MESSAGES.notFound,
        ],
        [() => bob.client.delete('/api/notifications/99999999999999999999999999'), 404, NOTIFICATION_MESSAGES.notFound],
      ]);
      expect(lookups()).toEqual([]);
      expect((await bob.client.put(`/api/notifications/${ids.like}/read`)).status).toBe(200);
      expect(lookups()).toEqual([[BigInt(ids.like) - 1n, 1]]);
    } finally {
      readAll.mockRestore();
    }
  });
});
