import { useId } from 'react';
import { BellIcon } from './ui/icons';
import { UnreadBadge } from './ui/UnreadBadge';

interface NotificationBellProps {
  /** Unread notifications; the notifications slice feeds it (0 for now). */
  count: number;
  onClick: () => void;
  expanded?: boolean;
}

/** The top-bar bell: accessible name "Notifications", unread count as description. */
export function NotificationBell({ count, onClick, expanded }: NotificationBellProps) {
  const descriptionId = useId();
  const unread = Math.max(0, Math.floor(count));
  return (
    <button
      type="button"
      className="icon-button bell"
      aria-label="Notifications"
      aria-describedby={unread > 0 ? descriptionId : undefined}
      aria-expanded={expanded}
      onClick={onClick}
    >
      <BellIcon />
      <UnreadBadge count={unread} />
      {unread > 0 ? (
        <span id={descriptionId} className="sr-only">
          {unread === 1 ? '1 notification non lue' : `${unread} notifications non lues`}
        </span>
      ) : null}
    </button>
  );
}
