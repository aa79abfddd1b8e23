import { useCurrentUser } from '../identity/sessionContext';
import { useToast } from '../shell/toast';
import { NotificationList } from './NotificationList';
import { useNotificationActions, useNotifications } from './store';
import './notifications.css';
import { LoginPrompt } from '../identity/LoginPrompt';

const TITLE = 'Notifications';
const NOT_LOGGED_IN = 'Utilisateur non connecté';
const MARK_ALL = 'Tout marquer comme lu';
const MARK_ALL_FAILED = 'Impossible de marquer les notifications comme lues.';

/** /notifications: the full list, with the same actions as the dropdown. */
export default function NotificationsScreen() {
  const { user } = useCurrentUser();
  const toast = useToast();
  const email = user?.email ?? null;
  const { items, unread, loaded, failed } = useNotifications(email);
  const { markAllRead } = useNotificationActions(email);

  const readAll = async () => {
    try {
      await markAllRead();
    } catch {
      toast.error(MARK_ALL_FAILED);
    }
  };

  return (
    <section className="page notifications-page" aria-labelledby="notifications-title" data-notifications>
      <title>{unread > 0 ? `(${unread}) ${TITLE} · EVO` : `${TITLE} · EVO`}</title>
      <header className="notifications-page__head">
        <div>
          <h1 id="notifications-title" tabIndex={-1}>
            {TITLE}
          </h1>
          {email ? (
            <p>
              {unread === 0
                ? 'Tout est lu.'
                : unread === 1
                  ? '1 notification non lue'
                  : `${unread} notifications non lues`}
            </p>
          ) : null}
        </div>
        {email ? (
          <button
            type="button"
            className="btn btn--small btn--secondary"
            disabled={unread === 0 && items.every((n) => n.seen)}
            onClick={() => void readAll()}
          >
            {MARK_ALL}
          </button>
        ) : null}
      </header>
      {!email ? (
        <LoginPrompt message={NOT_LOGGED_IN} />
      ) : !loaded && !failed ? (
        <p className="loading" role="status">
          Chargement...
        </p>
      ) : (
        <div className="card notifications-page__list">
          <NotificationList items={items} />
        </div>
      )}
    </section>
  );
}
