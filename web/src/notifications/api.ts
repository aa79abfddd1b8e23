import { NotificationList, UnreadAnswer, type NotificationView } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';

/** the product entities, "Notification"; any other type gets the default bell. */
export type { NotificationType } from '@evo/contracts';

/**
 * A notification as answered and pushed: `id` is the position of the event that caused it, in
 * decimal (can exceed 2^53: never a number); `seen` is 0 or 1.
 */
export type AppNotification = NotificationView;

/** Compares two notification ids as the numbers they are (older first). */
export const compareNotificationIds = (a: string, b: string): number => {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** GET /api/notifications?email= → newest first. */
export async function fetchNotifications(email: string, signal?: AbortSignal): Promise<AppNotification[]> {
  return decode(NotificationList, await api.get(`/api/notifications?email=${encodeURIComponent(email)}`, { signal }));
}

/** GET /api/notifications/unread → {unread} (the server's counter, never below 0). */
export async function fetchUnreadCount(signal?: AbortSignal): Promise<number> {
  return Math.max(0, decode(UnreadAnswer, await api.get('/api/notifications/unread', { signal })).unread);
}

/** PUT /api/notifications/:id/read */
export const markNotificationRead = (id: string) => api.put(`/api/notifications/${encodeURIComponent(id)}/read`);

/** PUT /api/notifications/read-all */
export const markAllNotificationsRead = () => api.put('/api/notifications/read-all');

/** DELETE /api/notifications/:id */
export const deleteNotification = (id: string) => api.delete(`/api/notifications/${encodeURIComponent(id)}`);
