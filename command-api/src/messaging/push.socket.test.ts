import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import type { SyncPayload } from '../http/socket';

const t = serverFixture({ members: 2 });
const [alice, bob] = t.members;

beforeAll(async () => {
  await t.follow(alice.member.email, bob.member.email);
  // its notification pushed before any socket of the tests listens
  await t.settle();
});

const sockets: Socket[] = [];
afterEach(() => {
  while (sockets.length) sockets.pop()!.disconnect();
});

/** A Socket.IO client logged in with the member's session cookie; resolves with its first 'sync'. */
async function online(m: Member, since?: string): Promise<{ socket: Socket; sync: SyncPayload }> {
  const socket = connect(t.server.url, {
    transports: ['websocket'],
    forceNew: true,
    extraHeaders: { cookie: m.client.cookie },
    auth: since === undefined ? {} : { since },
    reconnection: false,
  });
  sockets.push(socket);
  const sync = await new Promise<SyncPayload>((resolve, reject) => {
    socket.once('sync', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, sync };
}

const next = <T>(socket: Socket, event: string, timeoutMs = 5000) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${event}' within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });

type NotificationPush = {
  notification: { id: string; type: string; video_id: number; sender_pseudo: string; seen: number };
  unread: number;
  position: string;
};

describe('live push', () => {
  it('refuses a socket without a session', async () => {
    const socket = connect(t.server.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    sockets.push(socket);
    const err = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(err.message).toBe('Tu dois être connecté(e).');
  });

  it('pushes notification:new to the video owner when someone comments, then notification:unread on reads', async () => {
    const { socket, sync } = await online(bob);
    // no position given: nothing to catch up from, so the client is told to load its lists again
    expect(sync).toMatchObject({
      notifications: [],
      messages: [],
      position: expect.stringMatching(/^\d+$/),
      truncated: true,
    });
    const videoId = await t.firstVideoId(bob.client, bob.member.pseudo);
    const pushed = next<NotificationPush>(socket, 'notification:new');
    const r = await alice.client.post(`/api/videos/${videoId}/comment`, { content: 'Trop bien !' });
    expect(r.status).toBe(201);
    const p = await pushed;
    expect(p).toEqual({
      notification: {
        id: r.headers.get('x-evo-position'),
        type: 'comment',
        sender_email: alice.member.email,
        sender_pseudo: alice.member.pseudo,
        message: `${alice.member.pseudo} a commenté ta vidéo`,
        video_id: videoId,
        seen: 0,
        created_at: expect.any(String),
      },
      unread: sync.unread + 1,
      position: r.headers.get('x-evo-position'),
    });

    const unread = next<{ unread: number; position: string; read: string }>(socket, 'notification:unread');
    const m = await bob.client.put(`/api/notifications/${p.notification.id}/read`);
    expect(await unread).toEqual({
      unread: sync.unread,
      position: m.headers.get('x-evo-position'),
      read: p.notification.id,
    });
  });

  it('pushes comment:new to the sockets watching the video', async () => {
    const { socket } = await online(alice);
    const videoId = await t.firstVideoId(bob.client, bob.member.pseudo);
    expect(await socket.emitWithAck('video:watch', videoId)).toBe(true);
    expect(await socket.emitWithAck('video:watch', 'pas-un-id')).toBe(false);
    const pushed = next<{
      videoId: number;
      comment: { id: number; content: string };
      comments_count: number;
      position: string;
    }>(socket, 'comment:new');
    const r = await bob.client.post(`/api/videos/${videoId}/comment`, { content: 'Pour ceux qui regardent' });
    expect(await pushed).toEqual({
      videoId,
      comment: r.json.item,
      comments_count: expect.any(Number),
      position: r.headers.get('x-evo-position'),
    });
  });

  it('pushes message:new to both parties', async () => {
    const a = await online(alice);
    const b = await online(bob);
    const toAlice = next<{ message: { id: number; content: string }; position: string }>(a.socket, 'message:new');
    const toBob = next<{ message: { id: number; content: string }; position: string }>(b.socket, 'message:new');
    const r = await alice.client.post('/api/messages', { receiverEmail: bob.member.email, content: 'En direct' });
    const expected = { message: r.json.item, position: r.headers.get('x-evo-position') };
    expect(await toAlice).toEqual(expected);
    expect(await toBob).toEqual(expected);
  });

  it('catches a reconnecting member up with what they missed since their last position', async () => {
    const first = await online(bob);
    let last = first.sync.position;
    first.socket.on('notification:new', (p: NotificationPush) => (last = p.position));
    const videoId = await t.firstVideoId(bob.client, bob.member.pseudo);
    const seen = next<NotificationPush>(first.socket, 'notification:new');
    await alice.client.post(`/api/videos/${videoId}/comment`, { content: 'Vu en direct' });
    const live = await seen;
    expect(last).toBe(live.position);
    first.socket.disconnect();

    // while bob is away: a message, and one of his notifications read from another device
    const sent = await alice.client.post('/api/messages', {
      receiverEmail: bob.member.email,
      content: 'Pendant ton absence',
    });
    await bob.client.put(`/api/notifications/${live.notification.id}/read`);
    await t.settle();

    const back = await online(bob, last);
    expect(back.sync.messages).toEqual([sent.json.item]);
    expect(back.sync.notifications.map((n) => [n.id, n.type, n.seen])).toEqual([
      [sent.headers.get('x-evo-position'), 'message', 0],
      [live.notification.id, 'comment', 1],
    ]);
    expect(back.sync.deleted_notification_ids).toEqual([]);
    expect(back.sync.unread).toBe((await bob.client.get('/api/notifications/unread')).json.unread);
    expect(BigInt(back.sync.position)).toBeGreaterThan(BigInt(last));
    expect(back.sync.truncated).toBe(false);

    // nothing new since the position it was given: an empty catch-up
    const again = await online(bob, back.sync.position);
    expect(again.sync).toMatchObject({
      notifications: [],
      messages: [],
      deleted_notification_ids: [],
      hidden_conversations: [],
    });
  });

  it('reports deletions and hidden conversations in the catch-up; a bad position means none', async () => {
    const { sync } = await online(bob);
    const since = sync.position;
    const list = (await bob.client.get('/api/notifications')).json as unknown as Array<{ id: string }>;
    await bob.client.delete(`/api/notifications/${list[0].id}`);
    await bob.client.delete(
      `/api/messages/${encodeURIComponent(bob.member.email)}/${encodeURIComponent(alice.member.email)}`,
    );
    await t.settle();
    const back = await online(bob, since);
    expect(back.sync.deleted_notification_ids).toEqual([list[0].id]);
    expect(back.sync.hidden_conversations).toEqual([
      { other_email: alice.member.email, up_to_message_id: expect.any(Number) },
    ]);
    const bad = await online(bob, 'pas-une-position');
    expect(bad.sync).toMatchObject({ notifications: [], messages: [] });
    // the log's position as this connection finds it (an event may have come since `back`)
    expect(BigInt(bad.sync.position)).toBeGreaterThanOrEqual(BigInt(back.sync.position));
  });
});
