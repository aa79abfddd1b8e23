import { describe, expect, it } from 'vitest';
import {
  StaleMessageIdError,
  conversationDecider,
  conversationStream,
  notificationsDecider,
  notificationsStream,
  type NotificationCommand,
} from '@evo/domain';
import {
  EventStoreDbEventStore,
  IdBlocks,
  SqliteReadStore,
  SqliteEventStore,
  handleCommand,
  toNewEvents,
  type EventStore,
} from '@evo/infra';
import { FakeEsdbClient } from '@evo/infra/eventstore/testing/fake-esdb-client';
import { allProjectors } from '../registry';
import { rebuildReadModels } from '../runtime/rebuild';
import { dumpReadModels } from '../testing/read-model-dump';
import { projectWithPushes } from '../testing/project-with-pushes';
import { writeScriptedHistory } from '../testing/scripted-history';
import { newMember, postComment, uploadVideo } from '../testing/member-commands';
import { VIDEOS, type VideoDoc } from '../videos/videos-projector';
import { COMMENTS, type CommentDoc } from '../comments/comments-projector';
import { commentsQueries, threadComments } from '../comments/queries';
import { videoCounts } from '../identity/queries';
import {
  NOTIFICATIONS,
  NOTIFICATION_COUNTERS,
  type NotificationDoc,
  type NotificationCounterDoc,
} from './notifications-projector';
import { notificationsQueries } from './queries';
import { messagingQueries } from '../messaging/queries';
import { closedAfterEach } from '../testing/test-lifecycle';
import { minuteApartContexts } from '../testing/member-commands';

const open = closedAfterEach<EventStore>();

const ctx = minuteApartContexts(Date.UTC(2026, 5, 1, 8));

/** A tiny world written through the real deciders. Follows are appended as the social slice would. */
function world(events: EventStore = new SqliteEventStore(':memory:')) {
  open.push(events);
  const ids = new IdBlocks(events);
  return {
    events,
    member: (pseudo: string) => newMember(events, pseudo, ctx),
    async upload(ownerId: string) {
      const videoId = await ids.next('video', ctx(ownerId));
      await uploadVideo(events, { videoId, ownerId, title: 'Clip' }, ctx(ownerId));
      return videoId;
    },
    async follow(a: string, b: string) {
      const r = await events.append(
        `following-${a}`,
        toNewEvents([{ type: 'UserFollowed', data: { followerId: a, followeeId: b } }], `following-${a}`, ctx(a)),
        'any',
      );
      return r.position;
    },
    async like(u: string, videoId: number, ownerId: string) {
      const s = `like-${videoId}-${u}`;
      return (
        await events.append(
          s,
          toNewEvents([{ type: 'VideoLiked', data: { videoId, userId: u, ownerId } }], s, ctx(u)),
          'any',
        )
      ).position;
    },
    async comment(authorId: string, videoId: number, parentId: number | null = null, content = 'Bravo') {
      const commentId = await ids.next('comment', ctx(authorId));
      const r = await postComment(events, { commentId, videoId, authorId, parentId, content }, ctx(authorId));
      return { commentId, position: r.position! };
    },
    async send(a: string, b: string, content = 'Salut') {
      for (;;) {
        const messageId = await ids.next('message', ctx(a));
        try {
          const r = await handleCommand(
            events,
            conversationStream(a, b),
            conversationDecider,
            { type: 'SendMessage', messageId, content, senderId: a, receiverId: b, senderFollowsReceiver: true },
            ctx(a),
          );
          return { messageId, position: r.position! };
        } catch (e) {
          if (!(e instanceof StaleMessageIdError)) throw e;
        }
      }
    },
    deleteConversation: (u: string, other: string) =>
      handleCommand(
        events,
        conversationStream(u, other),
        conversationDecider,
        { type: 'DeleteConversation', userId: u, otherId: other },
        ctx(u),
      ),
    notif: (userId: string, command: NotificationCommand) =>
      handleCommand(events, notificationsStream(userId), notificationsDecider, command, ctx(userId)),
  };
}

/** Two members, alice and bob, and a video of bob's: the start of several tests below. */
async function aliceAndBobsVideo() {
  const w = world();
  const alice = await w.member('alice');
  const bob = await w.member('bob');
  return { w, alice, bob, v: await w.upload(bob) };
}

describe('comments projection', () => {
  it('threads comments one level deep, counts them on the video, denormalises the author', async () => {
    const { w, alice, bob, v } = await aliceAndBobsVideo();
    const c1 = await w.comment(alice, v, null, 'Premier');
    const c2 = await w.comment(bob, v, null, 'Deuxième');
    const r1 = await w.comment(bob, v, c1.commentId, 'Réponse');
    const r2 = await w.comment(alice, v, r1.commentId, 'Réponse à la réponse');
    const { read } = await projectWithPushes(w.events);
    const list = await commentsQueries(read).ofVideo(v);
    expect(list).toEqual([
      {
        id: c1.commentId,
        parent_id: null,
        user_pseudo: 'alice',
        user_profile_picture: 'alice.png',
        content: 'Premier',
        created_at: expect.any(String),
      },
      {
        id: r1.commentId,
        parent_id: c1.commentId,
        user_pseudo: 'bob',
        user_profile_picture: 'bob.png',
        content: 'Réponse',
        created_at: expect.any(String),
      },
      {
        id: r2.commentId,
        parent_id: c1.commentId,
        user_pseudo: 'alice',
        user_profile_picture: 'alice.png',
        content: 'Réponse à la réponse',
        created_at: expect.any(String),
      },
      {
        id: c2.commentId,
        parent_id: null,
        user_pseudo: 'bob',
        user_profile_picture: 'bob.png',
        content: 'Deuxième',
        created_at: expect.any(String),
      },
    ]);
    expect((await videoCounts(read, [v])).get(v)?.comments_count).toBe(4);
    expect(await commentsQueries(read).ofVideo(999)).toBeNull();
  });

  it('keeps replies whose parent is missing out of the thread', () => {
    const doc = (id: number, parent_id: number | null) =>
      ({
        _id: id,
        id,
        parent_id,
        video_id: 1,
        user_id: 'u',
        user_email: '',
        user_pseudo: 'p',
        user_profile_picture: '',
        content: 'x',
        created_at: '',
      }) as CommentDoc;
    expect(threadComments([doc(3, 1), doc(1, null), doc(2, 9)]).map((c) => c.id)).toEqual([1, 3]);
  });
});

describe('notifications projection', () => {
  it('notifies follows, likes, comments and messages (never oneself), id = position in decimal, and pushes once', async () => {
    const { w, alice, bob, v } = await aliceAndBobsVideo();
    const f = await w.follow(alice, bob);
    const l = await w.like(alice, v, bob);
    await w.like(bob, v, bob); // own like: nothing
    const c = await w.comment(alice, v);
    await w.comment(bob, v); // own video: nothing
    const m = await w.send(alice, bob);
    const once = await projectWithPushes(w.events);
    const twice = await projectWithPushes(w.events, 2);
    expect(await dumpReadModels(twice.read)).toEqual(await dumpReadModels(once.read));
    expect(twice.pushes).toEqual(once.pushes);

    const list = await notificationsQueries(once.read).list(bob);
    expect(list).toEqual([
      {
        id: String(m.position),
        type: 'message',
        sender_email: 'alice@test.fr',
        sender_pseudo: 'alice',
        message: "alice t'a envoyé un message",
        video_id: 0,
        seen: 0,
        created_at: expect.any(String),
      },
      {
        id: String(c.position),
        type: 'comment',
        sender_email: 'alice@test.fr',
        sender_pseudo: 'alice',
        message: 'alice a commenté ta vidéo',
        video_id: v,
        seen: 0,
        created_at: expect.any(String),
      },
      {
        id: String(l),
        type: 'like',
        sender_email: 'alice@test.fr',
        sender_pseudo: 'alice',
        message: 'alice a aimé ta vidéo',
        video_id: v,
        seen: 0,
        created_at: expect.any(String),
      },
      {
        id: String(f),
        type: 'follow',
        sender_email: 'alice@test.fr',
        sender_pseudo: 'alice',
        message: "alice s'est abonné(e) à toi",
        video_id: 0,
        seen: 0,
        created_at: expect.any(String),
      },
    ]);
    expect(await notificationsQueries(once.read).list(alice)).toEqual([]);
    expect(await notificationsQueries(once.read).unread(bob)).toBe(4);

    const news = once.pushes.filter((p) => p.event === 'notification:new');
    expect(news.map((p) => [p.room, (p.payload.notification as { type: string }).type, p.payload.unread])).toEqual([
      [`user:${bob}`, 'follow', 1],
      [`user:${bob}`, 'like', 2],
      [`user:${bob}`, 'comment', 3],
      [`user:${bob}`, 'message', 4],
    ]);
    expect(news[3].payload.position).toBe(m.position.toString());
    const messages = once.pushes.filter((p) => p.event === 'message:new');
    expect(messages.map((p) => p.room)).toEqual([`user:${alice}`, `user:${bob}`]);
    expect(messages[0].payload).toEqual({
      message: expect.objectContaining({
        id: m.messageId,
        sender_pseudo: 'alice',
        receiver_pseudo: 'bob',
        content: 'Salut',
      }),
      position: m.position.toString(),
    });
  });

  it('keeps the unread count right through reads, double reads, deletions and read-all; never below 0', async () => {
    const { w, alice, bob, v } = await aliceAndBobsVideo();
    const ids = [
      String(await w.follow(alice, bob)),
      String(await w.like(alice, v, bob)),
      String((await w.comment(alice, v)).position),
      String((await w.send(alice, bob)).position),
    ];
    const r = [bob];
    await w.notif(bob, { type: 'MarkNotificationRead', userId: bob, notificationId: ids[0], recipients: r });
    await w.notif(bob, { type: 'MarkNotificationRead', userId: bob, notificationId: ids[0], recipients: r });
    await w.notif(bob, { type: 'DeleteNotification', userId: bob, notificationId: ids[0], recipients: r }); // read one
    await w.notif(bob, { type: 'DeleteNotification', userId: bob, notificationId: ids[1], recipients: r }); // unread one
    let { read, pushes } = await projectWithPushes(w.events);
    expect(await notificationsQueries(read).unread(bob)).toBe(2);
    expect((await notificationsQueries(read).list(bob)).map((n) => n.id)).toEqual([ids[3], ids[2]]);
    expect(pushes.filter((p) => p.event === 'notification:unread').map((p) => p.payload)).toEqual([
      { unread: 3, position: expect.any(String), read: ids[0] },
      { unread: 3, position: expect.any(String), deleted: ids[0] },
      { unread: 2, position: expect.any(String), deleted: ids[1] },
    ]);

    await w.notif(bob, {
      type: 'MarkAllNotificationsRead',
      userId: bob,
      upToNotificationId: String(await w.events.lastPosition()),
    });
    const later = String((await w.send(alice, bob, 'Encore')).position);
    ({ read, pushes } = await projectWithPushes(w.events));
    expect(await notificationsQueries(read).unread(bob)).toBe(1);
    expect((await notificationsQueries(read).list(bob)).map((n) => [n.id, n.seen])).toEqual([
      [later, 0],
      [ids[3], 1],
      [ids[2], 1],
    ]);
    await w.notif(bob, { type: 'DeleteNotification', userId: bob, notificationId: later, recipients: r });
    await w.notif(bob, { type: 'DeleteNotification', userId: bob, notificationId: ids[2], recipients: r });
    await w.notif(bob, { type: 'DeleteNotification', userId: bob, notificationId: ids[3], recipients: r });
    ({ read } = await projectWithPushes(w.events, 2));
    expect(await notificationsQueries(read).unread(bob)).toBe(0);
    expect(await notificationsQueries(read).list(bob)).toEqual([]);
    const counters = await read.collection<NotificationCounterDoc>(NOTIFICATION_COUNTERS).find({});
    for (const c of counters) expect(c.unread).toBeGreaterThanOrEqual(0);
  });

  it('gives the notifications of one EventStoreDB commit (same commit, other prepare) ids of their own, the same after a replay', async () => {
    // the EventStoreDB adapter on a fake client whose multi-event writes share their commit position
    const w = world(new EventStoreDbEventStore(new FakeEsdbClient().asClient()));
    const alice = await w.member('alice');
    const bob = await w.member('bob');
    const v1 = await w.upload(bob);
    const v2 = await w.upload(bob);
    const stream = `likes-${alice}`;
    const likes = toNewEvents(
      [
        { type: 'VideoLiked', data: { videoId: v1, userId: alice, ownerId: bob } },
        { type: 'VideoLiked', data: { videoId: v2, userId: alice, ownerId: bob } },
      ],
      stream,
      ctx(alice),
    );
    await w.events.append(stream, likes, 'no_stream');
    const [first, second] = await w.events.readStream(stream);
    expect(first.position >> 64n).toBe(second.position >> 64n);
    expect(Number(first.position)).toBe(Number(second.position)); // what the commit half alone would give

    const once = await projectWithPushes(w.events);
    const twice = await projectWithPushes(w.events, 2);
    expect(await dumpReadModels(twice.read)).toEqual(await dumpReadModels(once.read));
    const list = await notificationsQueries(once.read).list(bob);
    expect(list.map((n) => [n.id, n.video_id])).toEqual([
      [String(second.position), v2],
      [String(first.position), v1],
    ]);
    expect(await notificationsQueries(once.read).unread(bob)).toBe(2);
    expect(
      (await notificationsQueries(once.read).list(bob, { before: String(second.position) })).map((n) => n.id),
    ).toEqual([String(first.position)]);

    await w.notif(bob, {
      type: 'MarkNotificationRead',
      userId: bob,
      notificationId: String(first.position),
      recipients: [bob],
    });
    const after = await projectWithPushes(w.events);
    expect((await notificationsQueries(after.read).list(bob)).map((n) => [n.id, n.seen])).toEqual([
      [String(second.position), 0],
      [String(first.position), 1],
    ]);
    expect(await notificationsQueries(after.read).unread(bob)).toBe(1);
  });

  it('tells what changed since a position: new, read and deleted notifications, new messages', async () => {
    const w = world();
    const alice = await w.member('alice');
    const bob = await w.member('bob');
    const f = String(await w.follow(alice, bob));
    const since = (await w.events.lastPosition())!;
    const m = await w.send(alice, bob, 'Pendant ton absence');
    await w.notif(bob, { type: 'MarkNotificationRead', userId: bob, notificationId: f, recipients: [bob] });
    const { read } = await projectWithPushes(w.events);
    const changed = await notificationsQueries(read).changedSince(bob, since, 50);
    expect(changed.notifications.map((n) => [n.id, n.seen])).toEqual([
      [String(m.position), 0],
      [f, 1],
    ]);
    expect(changed.deleted).toEqual([]);
    expect((await messagingQueries(read).since(bob, since, 50)).messages.map((x) => x.content)).toEqual([
      'Pendant ton absence',
    ]);
    expect((await notificationsQueries(read).changedSince(bob, since, 1)).truncated).toBe(true);
  });
});

describe('messages projection', () => {
  it('gives each party their mailbox and inbox; a deletion hides it for the requester only, until a new message', async () => {
    const w = world();
    const alice = await w.member('alice');
    const bob = await w.member('bob');
    const carol = await w.member('carol');
    await w.send(alice, bob, 'Un');
    await w.send(bob, alice, 'Deux');
    await w.send(carol, alice, 'De Carol');
    let { read } = await projectWithPushes(w.events);
    let q = messagingQueries(read);
    expect((await q.thread(alice, bob)).map((m) => m.content)).toEqual(['Un', 'Deux']);
    expect((await q.allOf(alice)).map((m) => m.content)).toEqual(['Un', 'Deux', 'De Carol']);
    expect((await q.inbox(alice)).map((e) => [e.other_pseudo, e.last_message.content])).toEqual([
      ['carol', 'De Carol'],
      ['bob', 'Deux'],
    ]);
    expect((await q.thread(bob, alice))[0]).toEqual({
      id: expect.any(Number),
      sender_email: 'alice@test.fr',
      receiver_email: 'bob@test.fr',
      sender_pseudo: 'alice',
      receiver_pseudo: 'bob',
      sender_profile_picture: 'alice.png',
      receiver_profile_picture: 'bob.png',
      content: 'Un',
      created_at: expect.any(String),
    });

    await w.deleteConversation(alice, bob);
    ({ read } = await projectWithPushes(w.events, 2));
    q = messagingQueries(read);
    expect(await q.thread(alice, bob)).toEqual([]);
    expect((await q.inbox(alice)).map((e) => e.other_pseudo)).toEqual(['carol']);
    expect((await q.thread(bob, alice)).map((m) => m.content)).toEqual(['Un', 'Deux']);
    expect(await q.hiddenSince(alice, 0n)).toEqual([
      { other_email: 'bob@test.fr', up_to_message_id: expect.any(Number) },
    ]);

    await w.send(bob, alice, 'Trois');
    const live = await projectWithPushes(w.events);
    q = messagingQueries(live.read);
    expect((await q.thread(alice, bob)).map((m) => m.content)).toEqual(['Trois']);
    expect((await q.inbox(alice)).map((e) => [e.other_pseudo, e.last_message.content])).toEqual([
      ['bob', 'Trois'],
      ['carol', 'De Carol'],
    ]);
    expect((await q.thread(bob, alice)).map((m) => m.content)).toEqual(['Un', 'Deux', 'Trois']);
    expect(live.pushes.filter((p) => p.event === 'conversation:deleted')).toEqual([
      {
        room: `user:${alice}`,
        event: 'conversation:deleted',
        payload: { other_email: 'bob@test.fr', up_to_message_id: expect.any(Number), position: expect.any(String) },
      },
    ]);
  });
});

describe('scripted history', () => {
  it('builds comments, notifications and conversations consistent with their counters', async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    await writeScriptedHistory(events, 6);
    const read = SqliteReadStore.temporary();
    await rebuildReadModels({ events, read, projectors: allProjectors });
    const comments = await read.collection<CommentDoc>(COMMENTS).find({});
    expect(comments.length).toBeGreaterThan(8);
    expect(comments.some((c) => c.parent_id !== null)).toBe(true);
    const videos = await read.collection<VideoDoc>(VIDEOS).find({});
    const counts = await videoCounts(
      read,
      videos.map((v) => v.id),
    );
    for (const v of videos)
      expect(counts.get(v.id)?.comments_count).toBe(comments.filter((c) => c.video_id === v.id).length);
    const notifications = await read.collection<NotificationDoc>(NOTIFICATIONS).find({});
    expect(new Set(notifications.map((n) => n.type))).toEqual(
      new Set(['follow', 'like', 'comment', 'message', 'gift', 'report_update']),
    );
    expect(notifications.some((n) => n.deleted)).toBe(true);
    expect(notifications.some((n) => n.seen === 1)).toBe(true);
    for (const c of await read.collection<NotificationCounterDoc>(NOTIFICATION_COUNTERS).find({})) {
      expect(c.unread).toBe(notifications.filter((n) => n.user_id === c._id && n.seen === 0 && !n.deleted).length);
    }
    const mailboxes = await read.collection('mailboxes').find({});
    expect(mailboxes.length).toBeGreaterThan(10);
    expect(mailboxes.some((m) => m.hidden)).toBe(true);
  });
});
