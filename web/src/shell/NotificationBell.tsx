import { useId, type Ref } from 'react';
import { BellIcon } from './ui/icons';
import { UnreadBadge } from './ui/UnreadBadge';

interface NotificationBellProps {
  /** Unread notifications (fed live by notifications/NotificationMenu). */
  count: number;
  onClick: () => void;
  expanded?: boolean;
  /** Id of the panel the bell opens, while it is open. */
  controls?: string;
  buttonRef?: Ref<HTMLButtonElement>;
}

/** The top-bar bell: accessible name "Notifications", unread count as description. */
export function NotificationBell({ count, onClick, expanded, controls, buttonRef }: NotificationBellProps) {
  const descriptionId = useId();
  const unread = Math.max(0, Math.floor(Number.isFinite(count) ? count : 0));
  return (
    <button
      ref={buttonRef}
      type="button"
      className="icon-button bell"
      aria-label="Notifications"
      aria-describedby={unread > 0 ? descriptionId : undefined}
      aria-expanded={expanded}
      aria-controls={controls}
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
