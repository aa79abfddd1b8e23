import {
  DomainError,
  StaleMessageIdError,
  conversationDecider,
  conversationStream,
  followDecider,
  followingStream,
  isVideoAvailable,
  notificationIdOf,
  notificationsCausedBy,
  notificationsDecider,
  notificationsStream,
  videoDecider,
  videoStream,
  type NotificationCommand,
} from '@evo/domain';
import { commandAt, postComment } from './member-commands';
import type { MembersWritten } from './scripted-history';
import { handleCommand, loadState } from '@evo/infra';

/**
 * Comments (top-level, replies, a reply to a reply, the owner on their own video, refusals),
 * private messages between followers (and refusals), conversation deletions on one side then a
 * new message, and notification reads, read-all and deletions, through the real deciders. Runs
 * after the social history, whose follows it relies on.
 */
export async function writeCommentsAndMessagesHistory({
  events,
  ids,
  userIds,
  videoIds,
}: MembersWritten): Promise<void> {
  const n = userIds.length;
  if (n < 3) return;
  let minute = 0;
  const ctx = (userId: string) => commandAt(userId, new Date(Date.UTC(2026, 4, 1, 8) + minute++ * 60_000));
  const refused = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
    }
  };

  // --- comments
  const videos: Array<{ videoId: number; ownerId: string }> = [];
  for (const videoId of videoIds) {
    const { state } = await loadState(events, videoStream(videoId), videoDecider);
    if (isVideoAvailable(state)) videos.push({ videoId, ownerId: state.ownerId });
  }
  const comment = async (authorId: string, videoId: number, parentId: number | null, content: string) => {
    const commentId = await ids.next('comment', ctx(authorId));
    await postComment(events, { commentId, videoId, authorId, parentId, content }, ctx(authorId));
    return commentId;
  };
  for (const [k, { videoId, ownerId }] of videos.slice(0, 4).entries()) {
    const others = userIds.filter((u) => u !== ownerId);
    const top = await comment(others[k % others.length], videoId, null, `Super vidéo n°${k} 👏`);
    const reply = await comment(ownerId, videoId, top, 'Merci beaucoup !');
    await comment(others[(k + 1) % others.length], videoId, reply, 'Je réponds à la réponse');
    await comment(ownerId, videoId, null, 'Mon propre commentaire');
    await refused(() => comment(others[0], videoId, null, '   '));
    await refused(() => comment(others[0], videoId, 999_999, 'Parent inconnu'));
  }
  // a deleted video takes no comment
  for (const videoId of videoIds) {
    const { state } = await loadState(events, videoStream(videoId), videoDecider);
    if (state.status !== 'none' && state.visibility === 'supprimée') {
      await refused(() => comment(userIds[0], videoId, null, 'Trop tard'));
      break;
    }
  }

  // --- private messages
  const follows = async (a: string, b: string) =>
    (await loadState(events, followingStream(a), followDecider)).state.following.has(b);
  const send = async (senderId: string, receiverId: string, content: string) => {
    const senderFollowsReceiver = await follows(senderId, receiverId);
    for (;;) {
      const messageId = await ids.next('message', ctx(senderId));
      try {
        await handleCommand(
          events,
          conversationStream(senderId, receiverId),
          conversationDecider,
          { type: 'SendMessage', messageId, content, senderId, receiverId, senderFollowsReceiver },
          ctx(senderId),
        );
        return;
      } catch (e) {
        if (!(e instanceof StaleMessageIdError)) throw e;
      }
    }
  };
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++)
      if (i !== j && (await follows(userIds[i], userIds[j]))) pairs.push([userIds[i], userIds[j]]);
  }
  for (const [k, [a, b]] of pairs.slice(0, 6).entries()) {
    await send(a, b, `Salut ! Message n°${k}`);
    await send(a, b, 'Tu as vu ma dernière vidéo ?');
    await refused(() => send(a, b, 'Espèce de connard'));
  }
  const notFollowing = userIds.flatMap((a) =>
    userIds.filter((b) => b !== a && !pairs.some(([x, y]) => x === a && y === b)).map((b) => [a, b] as const),
  );
  if (notFollowing.length > 0) await refused(() => send(notFollowing[0][0], notFollowing[0][1], 'Coucou'));
  if (pairs.length > 0) {
    const [a, b] = pairs[0];
    const deleteConversation = (userId: string, otherId: string) =>
      handleCommand(
        events,
        conversationStream(userId, otherId),
        conversationDecider,
        { type: 'DeleteConversation', userId, otherId },
        ctx(userId),
      );
    await deleteConversation(a, b);
    await deleteConversation(a, b); // no-op
    await send(a, b, 'Nouveau message après suppression');
    await deleteConversation(b, a);
  }

  // --- notification reads and deletions (ids are the positions of the events that notified)
  const mine = new Map<string, string[]>();
  for await (const batch of events.readAll(undefined, 500)) {
    for (const e of batch) {
      for (const spec of notificationsCausedBy(e))
        mine.set(spec.recipientId, [...(mine.get(spec.recipientId) ?? []), notificationIdOf(e.position)]);
    }
  }
  const decide = async (userId: string, command: NotificationCommand) =>
    refused(() => handleCommand(events, notificationsStream(userId), notificationsDecider, command, ctx(userId)));
  for (const [k, userId] of userIds.entries()) {
    const ids = mine.get(userId) ?? [];
    if (ids.length < 3) continue;
    const recipients = [userId];
    if (k % 3 === 0) {
      await decide(userId, { type: 'MarkNotificationRead', userId, notificationId: ids[0], recipients });
      await decide(userId, { type: 'MarkNotificationRead', userId, notificationId: ids[0], recipients }); // no-op
      await decide(userId, { type: 'DeleteNotification', userId, notificationId: ids[1], recipients }); // unread
      await decide(userId, { type: 'DeleteNotification', userId, notificationId: ids[0], recipients }); // read
    } else if (k % 3 === 1) {
      await decide(userId, { type: 'MarkAllNotificationsRead', userId, upToNotificationId: ids[ids.length - 2] });
      await decide(userId, { type: 'DeleteNotification', userId, notificationId: ids[ids.length - 1], recipients });
      await decide(userId, { type: 'MarkNotificationRead', userId, notificationId: ids[ids.length - 1], recipients }); // deleted: refused
    } else {
      // someone else's notification: refused
      await decide(userId, { type: 'MarkNotificationRead', userId, notificationId: ids[0], recipients: [userIds[0]] });
      await decide(userId, { type: 'MarkNotificationRead', userId, notificationId: ids[2], recipients });
    }
  }
}
