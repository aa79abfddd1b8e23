import type { Decider } from '../shared/decider';
import type { LogPosition } from '../shared/envelope';
import { NOT_YOURS, forbidden, notFound } from '../shared/errors';
import type { NotificationEvent } from './events';

/**
 * A notification's id: the decimal form of the log position of the event that caused it. Never a
 * JS number: an EventStoreDB position (commit << 64 | prepare) does not fit in one.
 */
export type NotificationId = string;
export const notificationIdOf = (position: LogPosition): NotificationId => position.toString();
/** Facts written before ids were strings hold numbers: the same value. */
export const notificationIdFrom = (stored: string | number): NotificationId => String(stored);

export const NOTIFICATION_MESSAGES = {
  notFound: 'Notification introuvable.',
  forbidden: NOT_YOURS.access,
  read: 'Notification lue.',
  allRead: 'Toutes les notifications sont lues.',
  deleted: 'Notification supprimée.',
} as const;

/**
 * `recipients`: who notification `notificationId` was sent to, found by the handler from the event
 * at that position (see notificationsCausedBy); null when no event there notifies anyone.
 */
export type NotificationCommand =
  | {
      type: 'MarkNotificationRead';
      userId: string;
      notificationId: NotificationId;
      recipients: readonly string[] | null;
    }
  | { type: 'DeleteNotification'; userId: string; notificationId: NotificationId; recipients: readonly string[] | null }
  | { type: 'MarkAllNotificationsRead'; userId: string; upToNotificationId: NotificationId };

/**
 * Ids read or deleted, newest first, as a persistent list: `evolve` adds one in O(1) without
 * touching the previous state (a fold of a long stream stays linear and every state stays valid);
 * `decide` looks one id up in O(n), once per command.
 */
export type NotificationIds = { readonly id: NotificationId; readonly rest: NotificationIds } | null;

export function hasNotificationId(list: NotificationIds, id: NotificationId): boolean {
  for (let node = list; node; node = node.rest) if (node.id === id) return true;
  return false;
}

/** A member's reads and deletions (stream `notifications-<userId>`). */
export type NotificationsState = {
  readonly read: NotificationIds;
  readonly deleted: NotificationIds;
  /** every notification up to this position is read */
  readonly allReadUpTo: bigint;
};

function checkOwner(
  c: { userId: string; notificationId: NotificationId; recipients: readonly string[] | null },
  s: NotificationsState,
) {
  if (!c.recipients || c.recipients.length === 0) throw notFound(NOTIFICATION_MESSAGES.notFound);
  if (!c.recipients.includes(c.userId)) throw forbidden(NOTIFICATION_MESSAGES.forbidden);
  if (hasNotificationId(s.deleted, c.notificationId)) throw notFound(NOTIFICATION_MESSAGES.notFound);
}

export const notificationsDecider: Decider<NotificationCommand, NotificationEvent, NotificationsState> = {
  initialState: () => ({ read: null, deleted: null, allReadUpTo: 0n }),
  evolve(state, event) {
    switch (event.type) {
      case 'NotificationRead':
        return { ...state, read: { id: notificationIdFrom(event.data.notificationId), rest: state.read } };
      case 'NotificationDeleted':
        return { ...state, deleted: { id: notificationIdFrom(event.data.notificationId), rest: state.deleted } };
      case 'AllNotificationsRead': {
        const upTo = BigInt(event.data.upToNotificationId);
        return { ...state, allReadUpTo: upTo > state.allReadUpTo ? upTo : state.allReadUpTo };
      }
    }
  },
  decide(command, state) {
    const { userId } = command;
    switch (command.type) {
      case 'MarkNotificationRead': {
        checkOwner(command, state);
        const { notificationId } = command;
        // marking twice changes nothing and appends nothing
        if (hasNotificationId(state.read, notificationId) || BigInt(notificationId) <= state.allReadUpTo) return [];
        return [{ type: 'NotificationRead', data: { userId, notificationId } }];
      }
      case 'DeleteNotification':
        checkOwner(command, state);
        return [{ type: 'NotificationDeleted', data: { userId, notificationId: command.notificationId } }];
      case 'MarkAllNotificationsRead':
        if (BigInt(command.upToNotificationId) <= state.allReadUpTo) return [];
        return [{ type: 'AllNotificationsRead', data: { userId, upToNotificationId: command.upToNotificationId } }];
    }
  },
};
