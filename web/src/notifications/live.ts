import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSocketEvents, type PushHandlers } from '../shell/socket';
import { applyNewNotification, applySync, applyUnread, setLiveNotifications } from './store';

/**
 * What the notification pushes change in the cache: 'notification:new' a new item and the badge,
 * 'notification:unread' a read, a deletion or everything read (also from the member's other tabs),
 * the catch-up 'sync' what changed while disconnected.
 */
export const notificationPushes = (client: QueryClient, email: string): PushHandlers => ({
  'notification:new': (payload) => applyNewNotification(client, email, payload),
  'notification:unread': (payload) => applyUnread(client, email, payload),
  sync: (payload) => applySync(client, email, payload),
});

/** Mounted once, by the shell, for the logged-in member. */
export function useNotificationsLive(email: string): void {
  const client = useQueryClient();
  useEffect(() => setLiveNotifications(client, email), [client, email]);
  useSocketEvents(notificationPushes(client, email));
}
