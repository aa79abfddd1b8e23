import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import type { AppEvent } from '../all-events';
import type { MessageSent } from '../messaging/events';
import { NotificationReadSchema, notificationsStream, type NotificationEvent } from './events';
import { NOTIFICATION_TEXTS, NOTIFICATION_TYPES, notificationsCausedBy } from './notification-rules';
import {
  NOTIFICATION_MESSAGES,
  notificationIdOf,
  notificationsDecider,
  type NotificationCommand,
} from './notifications-decider';

const sent = (messageId: number, senderId = 'a', receiverId = 'b', content = 'Salut, ça va ?'): MessageSent => ({
  type: 'MessageSent',
  data: { messageId, senderId, receiverId, content },
});

describe('notification rules', () => {
  it('names the stream of reads and deletions', () => {
    expect(notificationsStream('u1')).toBe('notifications-u1');
  });
  const ev = (e: AppEvent) => notificationsCausedBy(e);
  it('notifies the followee of a follow', () => {
    expect(ev({ type: 'UserFollowed', data: { followerId: 'a', followeeId: 'b' } })).toEqual([
      { type: 'follow', recipientId: 'b', senderId: 'a', videoId: 0 },
    ]);
  });
  it('notifies the owner of a like or a comment, with the video, never themselves', () => {
    expect(ev({ type: 'VideoLiked', data: { videoId: 3, userId: 'a', ownerId: 'b' } })).toEqual([
      { type: 'like', recipientId: 'b', senderId: 'a', videoId: 3 },
    ]);
    expect(ev({ type: 'VideoLiked', data: { videoId: 3, userId: 'b', ownerId: 'b' } })).toEqual([]);
    const comment = { commentId: 1, videoId: 3, videoOwnerId: 'b', authorId: 'a', parentId: null, content: 'x' };
    expect(ev({ type: 'CommentPosted', data: comment })).toEqual([
      { type: 'comment', recipientId: 'b', senderId: 'a', videoId: 3 },
    ]);
    expect(ev({ type: 'CommentPosted', data: { ...comment, authorId: 'b' } })).toEqual([]);
  });
  it('notifies the receiver of a message; other facts notify nobody', () => {
    expect(ev(sent(1))).toEqual([{ type: 'message', recipientId: 'b', senderId: 'a', videoId: 0 }]);
    expect(ev({ type: 'VideoUnliked', data: { videoId: 3, userId: 'a', ownerId: 'b' } })).toEqual([]);
    expect(ev({ type: 'UserLoggedIn', data: { userId: 'a' } })).toEqual([]);
  });
  it('has a French text for every type of the product specification (and "Mes données", issue 31)', () => {
    expect(NOTIFICATION_TYPES).toEqual([
      'follow',
      'like',
      'comment',
      'message',
      'gift',
      'report_update',
      'data_export',
    ]);
    expect(NOTIFICATION_TEXTS.follow('Alice')).toBe("Alice s'est abonné(e) à toi");
    for (const t of NOTIFICATION_TYPES) expect(NOTIFICATION_TEXTS[t]('Alice')).toMatch(/\S/);
  });
});

describe('notifications decider', () => {
  const read = (notificationId: string, userId = 'u', recipients: string[] | null = ['u']): NotificationCommand => ({
    type: 'MarkNotificationRead',
    userId,
    notificationId,
    recipients,
  });
  const del = (notificationId: string, userId = 'u', recipients: string[] | null = ['u']): NotificationCommand => ({
    type: 'DeleteNotification',
    userId,
    notificationId,
    recipients,
  });
  const wasRead = (notificationId: string | number): NotificationEvent => ({
    type: 'NotificationRead',
    data: { userId: 'u', notificationId },
  });
  const wasDeleted = (notificationId: string | number): NotificationEvent => ({
    type: 'NotificationDeleted',
    data: { userId: 'u', notificationId },
  });
  const allRead = (upToNotificationId: string | number): NotificationEvent => ({
    type: 'AllNotificationsRead',
    data: { userId: 'u', upToNotificationId },
  });
  /** EventStoreDB positions: commit << 64 | prepare, far beyond 2^53 */
  const esdb = (commit: bigint, prepare: bigint) => notificationIdOf((commit << 64n) | prepare);

  it('marks its owner’s notification read, once', () => {
    given(notificationsDecider)
      .when(read('12'))
      .then([wasRead('12')]);
    given(notificationsDecider, [wasRead('12')])
      .when(read('12'))
      .then([]);
    given(notificationsDecider, [allRead('20')])
      .when(read('12'))
      .then([]);
    given(notificationsDecider, [allRead('10')])
      .when(read('12'))
      .then([wasRead('12')]);
  });
  it('refuses someone else’s notification (403) and an unknown one (404)', () => {
    given(notificationsDecider)
      .when(read('12', 'u', ['v']))
      .thenThrows(NOTIFICATION_MESSAGES.forbidden, 'forbidden');
    given(notificationsDecider)
      .when(del('12', 'u', ['v']))
      .thenThrows('Accès refusé.', 'forbidden');
    given(notificationsDecider)
      .when(read('12', 'u', null))
      .thenThrows(NOTIFICATION_MESSAGES.notFound, 'not_found');
    given(notificationsDecider)
      .when(del('12', 'u', []))
      .thenThrows(NOTIFICATION_MESSAGES.notFound, 'not_found');
  });
  it('deletes once; a deleted notification is not found any more', () => {
    given(notificationsDecider)
      .when(del('12'))
      .then([wasDeleted('12')]);
    given(notificationsDecider, [wasDeleted('12')])
      .when(del('12'))
      .thenThrows(NOTIFICATION_MESSAGES.notFound, 'not_found');
    given(notificationsDecider, [wasDeleted('12')])
      .when(read('12'))
      .thenThrows(NOTIFICATION_MESSAGES.notFound, 'not_found');
  });
  it('marks everything up to a position read, and appends nothing when nothing is newer', () => {
    const all = (upToNotificationId: string): NotificationCommand => ({
      type: 'MarkAllNotificationsRead',
      userId: 'u',
      upToNotificationId,
    });
    given(notificationsDecider)
      .when(all('30'))
      .then([allRead('30')]);
    given(notificationsDecider, [allRead('30')])
      .when(all('30'))
      .then([]);
    given(notificationsDecider, [allRead('30')])
      .when(all('31'))
      .then([allRead('31')]);
    // compared as numbers, not as text
    given(notificationsDecider, [allRead('9')])
      .when(all('10'))
      .then([allRead('10')]);
  });
  it('evolve leaves the state it was given untouched (a kept state still decides as before)', () => {
    const before = notificationsDecider.evolve(notificationsDecider.initialState(), wasRead('1'));
    const after = notificationsDecider.evolve(notificationsDecider.evolve(before, wasRead('12')), wasDeleted('13'));
    expect(notificationsDecider.decide(read('12'), before)).toEqual([wasRead('12')]);
    expect(notificationsDecider.decide(read('12'), after)).toEqual([]);
    expect(notificationsDecider.decide(del('13'), before)).toEqual([wasDeleted('13')]);
    expect(() => notificationsDecider.decide(del('13'), after)).toThrow(NOTIFICATION_MESSAGES.notFound);
  });
  it('tells apart notifications whose positions share their commit half (EventStoreDB)', () => {
    const a = esdb(7000n, 7000n);
    const b = esdb(7000n, 7100n);
    expect(a).not.toBe(b);
    given(notificationsDecider, [wasRead(a)])
      .when(read(b))
      .then([wasRead(b)]);
    given(notificationsDecider, [wasDeleted(a)])
      .when(read(b))
      .then([wasRead(b)]);
    given(notificationsDecider, [allRead(a)])
      .when(read(b))
      .then([wasRead(b)]);
    given(notificationsDecider, [allRead(b)])
      .when(read(a))
      .then([]);
  });
  it('reads the facts written when ids were numbers', () => {
    given(notificationsDecider, [wasRead(12)])
      .when(read('12'))
      .then([]);
    given(notificationsDecider, [wasDeleted(12)])
      .when(del('12'))
      .thenThrows(NOTIFICATION_MESSAGES.notFound, 'not_found');
    given(notificationsDecider, [allRead(20)])
      .when(read('19'))
      .then([]);
    expect(NotificationReadSchema.parse({ userId: 'u', notificationId: 12 })).toEqual({
      userId: 'u',
      notificationId: 12,
    });
    expect(NotificationReadSchema.parse({ userId: 'u', notificationId: esdb(1n, 2n) }).notificationId).toBe(
      esdb(1n, 2n),
    );
    for (const bad of ['0', '012', '-1', '1e3', 'abc', '1'.repeat(40), 0, 1.5]) {
      expect(NotificationReadSchema.safeParse({ userId: 'u', notificationId: bad }).success).toBe(false);
    }
  });
});
