import { lazy, Suspense, useEffect, useId } from 'react';
import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { NotificationBell } from '../shell/NotificationBell';
import { whenFirstScreenShown } from '../shell/firstScreen';
import { useDisclosure } from '../shell/useDisclosure';
import { MarkAllReadButton } from './MarkAllReadButton';
import { useNotifications } from './store';
import './notifications.css';

const SEE_ALL = 'Voir toutes les notifications';
const loadList = () => import('./NotificationList');
/** The items (and their follow-back, dates…) load apart, keeping the first page light. */
const NotificationList = lazy(() => loadList().then((m) => ({ default: m.NotificationList })));
/** Items shown in the dropdown; the full list is on /notifications. */
const DROPDOWN_LIMIT = 8;

/**
 * The top-bar bell with its live unread badge and the dropdown (the product screens
 * "Notification dropdown"). Disclosure pattern (useDisclosure): the bell toggles the panel;
 * Escape or an outside click closes it and focus returns to the bell.
 */
export function NotificationMenu() {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  const { items, unread, loaded, reload } = useNotifications(email);
  const disclosure = useDisclosure<HTMLDivElement>();
  const { open, close } = disclosure;
  const panelId = useId();
  const headingId = useId();

  // Fetch the list's code once the page is shown, so that the first opening is instant. A fetch
  // that fails (offline at that moment) is no error: opening the list imports it again.
  useEffect(() => {
    void whenFirstScreenShown().then(() => loadList().catch(() => undefined));
  }, []);

  const toggle = () => {
    if (!open && user) reload();
    disclosure.toggle();
  };

  return (
    <div className="notif-menu" ref={disclosure.rootRef}>
      <NotificationBell
        count={unread}
        onClick={toggle}
        expanded={open}
        controls={open ? panelId : undefined}
        buttonRef={disclosure.buttonRef}
      />
      {open ? (
        <div id={panelId} className="notif-panel" role="region" aria-labelledby={headingId} data-notifications>
          <div className="notif-panel__head">
            <h2 id={headingId} tabIndex={-1}>
              Notifications
            </h2>
            <MarkAllReadButton email={email} items={items} unread={unread} className="btn btn--small btn--ghost" />
          </div>
          <div className="notif-panel__scroll">
            {loaded || items.length > 0 ? (
              <Suspense fallback={<Loading />}>
                <NotificationList items={items.slice(0, DROPDOWN_LIMIT)} onNavigate={close} />
              </Suspense>
            ) : (
              <Loading />
            )}
          </div>
          <Link to="/notifications" className="notif-panel__all" onClick={close}>
            {SEE_ALL}
          </Link>
        </div>
      ) : null}
    </div>
  );
}

function Loading() {
  return (
    <p className="notif-empty" role="status">
      Chargement...
    </p>
  );
}
