import { useCurrentUser } from '../identity/sessionContext';
import { NotificationList } from './NotificationList';
import { MarkAllReadButton } from './MarkAllReadButton';
import { useNotifications } from './store';
import './notifications.css';
import { LoginPrompt } from '../identity/LoginPrompt';
import { Loading } from '../shell/Loading';

const TITLE = 'Notifications';

/** /notifications: the full list, with the same actions as the dropdown. */
export default function NotificationsScreen() {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  const { items, unread, loaded, failed } = useNotifications(email);

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
          <MarkAllReadButton email={email} items={items} unread={unread} className="btn btn--small btn--secondary" />
        ) : null}
      </header>
      {!email ? (
        <LoginPrompt />
      ) : !loaded && !failed ? (
        <Loading />
      ) : (
        <div className="card notifications-page__list">
          <NotificationList items={items} />
        </div>
      )}
    </section>
  );
}
