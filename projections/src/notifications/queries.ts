import { positionKey, type LogPosition, type NotificationId } from '@evo/domain';
import type { ReadStore } from '@evo/infra';
import {
  NOTIFICATIONS,
  NOTIFICATION_COUNTERS,
  notificationCauseKey,
  toNotificationView,
  type NotificationCounterDoc,
  type NotificationDoc,
  type NotificationView,
} from './notifications-projector';

export const NOTIFICATIONS_PAGE = { default: 100, max: 500 } as const;

export function notificationsQueries(read: ReadStore) {
  const notifications = read.collection<NotificationDoc>(NOTIFICATIONS);
  const counters = read.collection<NotificationCounterDoc>(NOTIFICATION_COUNTERS);
  return {
    /** newest first; `before`: only those older than notification `before` (next page) */
    async list(userId: string, options: { limit?: number; before?: NotificationId } = {}): Promise<NotificationView[]> {
      const limit = Math.min(Math.max(1, options.limit ?? NOTIFICATIONS_PAGE.default), NOTIFICATIONS_PAGE.max);
      const before = options.before !== undefined ? { cause_pos: { $lt: notificationCauseKey(options.before) } } : {};
      const docs = await notifications.find(
        { user_id: userId, deleted: false, ...before },
        { sort: { cause_pos: -1 }, limit },
      );
      return docs.map(toNotificationView);
    },
    /** whether `id` names a notification of anyone (deleted ones included) */
    async exists(id: NotificationId): Promise<boolean> {
      return (await notifications.findOne({ id }, { projection: { _id: 1 } })) !== null;
    },
    async unread(userId: string): Promise<number> {
      return (await counters.findOne({ _id: userId }))?.unread ?? 0;
    },
    /**
     * What changed after `since` (exclusive), oldest change first: notifications created or marked
     * read (to upsert by id) and the ids of those deleted. `truncated` when more than `limit` changed.
     */
    async changedSince(userId: string, since: LogPosition, limit: number) {
      const docs = await notifications.find(
        { user_id: userId, _pos: { $gt: positionKey(since) } },
        { sort: { _pos: 1 }, limit: limit + 1 },
      );
      const truncated = docs.length > limit;
      const kept = docs.slice(0, limit);
      return {
        notifications: kept.filter((d) => !d.deleted).map(toNotificationView),
        deleted: kept.filter((d) => d.deleted).map((d) => d.id),
        truncated,
      };
    },
  };
}
