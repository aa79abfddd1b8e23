import { useEffect } from 'react';
import { useCurrentUser } from '../identity/sessionContext';
import { useSocketEvent } from '../shell/socket';
import { applyNewNotification, applySync, applyUnread, loadNotifications, resetNotifications } from './store';

/**
 * Keeps the notification store in step with the server: loads the list for the
 * logged-in member and applies 'notification:new', 'notification:unread' and the
 * catch-up 'sync'. Mounted once, by the top-bar bell.
 */
export function useNotificationsLive(): void {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;

  useEffect(() => {
    if (!email) {
      resetNotifications();
      return;
    }
    void loadNotifications(email);
    return () => resetNotifications();
  }, [email]);

  useSocketEvent('notification:new', applyNewNotification);
  useSocketEvent('notification:unread', applyUnread);
  useSocketEvent('sync', applySync);
}
