import { api } from '../api/http';

/** the product entities, "Notification"; any other type gets the default bell. */
export type { NotificationType } from '@evo/contracts';

export interface AppNotification {
  /** the position of the event that caused it, in decimal (can exceed 2^53: never a number) */
  id: string;
  type: string;
  sender_email: string;
  sender_pseudo: string;
  message: string;
  video_id: number;
  seen: boolean;
  created_at: string | null;
}

/** A notification id as the server sends it: a decimal string (a plain number from older servers). */
export function notificationId(raw: unknown): string | null {
  if (typeof raw === 'string') return /^[1-9]\d{0,38}$/.test(raw) ? raw : null;
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw > 0 ? String(raw) : null;
  return null;
}

/** Compares two notification ids as the numbers they are (older first). */
export const compareNotificationIds = (a: string, b: string): number => {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

export function normalizeNotification(raw: unknown): AppNotification | null {
  if (!raw || typeof raw !== 'object') return null;
  const n = raw as Record<string, unknown>;
  const id = notificationId(n.id);
  if (id === null) return null;
  const videoId = Number(n.video_id);
  return {
    id,
    type: typeof n.type === 'string' ? n.type : '',
    sender_email: typeof n.sender_email === 'string' ? n.sender_email : '',
    sender_pseudo: typeof n.sender_pseudo === 'string' ? n.sender_pseudo : '',
    message: typeof n.message === 'string' ? n.message : '',
    video_id: Number.isFinite(videoId) ? videoId : 0,
    seen: n.seen === 1 || n.seen === true || n.seen === '1',
    created_at: typeof n.created_at === 'string' ? n.created_at : null,
  };
}

export function normalizeNotifications(raw: unknown): AppNotification[] {
  if (!Array.isArray(raw)) return [];
  return raw.map(normalizeNotification).filter((n): n is AppNotification => n !== null);
}

/** GET /api/notifications?email= → newest first. */
export async function fetchNotifications(email: string, signal?: AbortSignal) {
  return normalizeNotifications(
    await api.get<unknown>(`/api/notifications?email=${encodeURIComponent(email)}`, { signal }),
  );
}

/** GET /api/notifications/unread → {unread} (the server's counter, never below 0). */
export async function fetchUnreadCount(signal?: AbortSignal): Promise<number | null> {
  const data = await api.get<{ unread?: unknown }>('/api/notifications/unread', { signal });
  const n = Number(data?.unread);
  return Number.isFinite(n) ? Math.max(0, Math.floor(n)) : null;
}

/** PUT /api/notifications/:id/read */
export const markNotificationRead = (id: string) => api.put(`/api/notifications/${encodeURIComponent(id)}/read`);

/** PUT /api/notifications/read-all */
export const markAllNotificationsRead = () => api.put('/api/notifications/read-all');

/** DELETE /api/notifications/:id */
export const deleteNotification = (id: string) => api.delete(`/api/notifications/${encodeURIComponent(id)}`);
