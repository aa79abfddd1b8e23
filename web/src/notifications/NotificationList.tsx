import { useState, type ComponentType, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { followBack } from '../social/api';
import { formatFullDate, formatRelative, isoDate, sameIdentity, userPath } from '../social/format';
import { useToast } from '../shell/toast';
import { BellIcon } from '../shell/ui/icons';
import { CloseIcon, CommentIcon, FlagIcon, GiftIcon, HeartIcon, MailIcon, UserPlusIcon } from '../videos/icons';
import type { AppNotification } from './api';
import { markFollowed, useFollowsSender } from './followedSenders';
import { useNotificationActions } from './store';
import { messageAfterSender } from './text';
import './notifications.css';

const FOLLOW_BACK = "S'abonner en retour";
const FOLLOW_BACK_OK = '✅ Abonné en retour !';
const FOLLOW_BACK_FAILED = '❌ Erreur abonnement en retour';
const SEE_VIDEO = 'Voir la vidéo';
const SEE_DECISIONS = 'Voir la décision';
const SEE_MESSAGES = 'Voir';
/** what a reporter is told when their report is closed: about their report, not a decision about them */
const REPORT_CLOSED = 'Ton signalement a été traité.';
const EMPTY = 'Aucune notification';
const DELETE_FAILED = 'Impossible de supprimer la notification.';

const TYPES: Record<string, { Icon: ComponentType<{ size?: number }>; label: string }> = {
  follow: { Icon: UserPlusIcon, label: 'Nouvel abonné' },
  like: { Icon: HeartIcon, label: "J'aime" },
  comment: { Icon: CommentIcon, label: 'Commentaire' },
  message: { Icon: MailIcon, label: 'Message' },
  gift: { Icon: GiftIcon, label: 'Cadeau' },
  report_update: { Icon: FlagIcon, label: 'Signalement' },
  data_export: { Icon: BellIcon, label: 'Mes données' },
};
const DEFAULT_TYPE = { Icon: BellIcon, label: 'Notification' };

interface NotificationListProps {
  items: AppNotification[];
  /** Called before navigating away (closes the dropdown). */
  onNavigate?: () => void;
}

/** Notification items (the product screens, "Notification dropdown"), used by the dropdown and /notifications. */
export function NotificationList({ items, onNavigate }: NotificationListProps) {
  if (items.length === 0) return <p className="notif-empty">{EMPTY}</p>;
  return (
    <ul className="notif-list">
      {items.map((notification) => (
        <NotificationItem key={notification.id} notification={notification} onNavigate={onNavigate} />
      ))}
    </ul>
  );
}

function NotificationItem({ notification, onNavigate }: { notification: AppNotification; onNavigate?: () => void }) {
  const { user } = useCurrentUser();
  const toast = useToast();
  const navigate = useNavigate();
  const [following, setFollowing] = useState(false);
  const client = useQueryClient();
  const { markRead, remove: removeNotification } = useNotificationActions(user?.email ?? null);
  const { Icon, label } = TYPES[notification.type] ?? DEFAULT_TYPE;
  // a member is named by pseudo, never by email
  const sender = notification.sender_pseudo || 'EVO';
  const unread = !notification.seen;
  const followItem =
    notification.type === 'follow' &&
    Boolean(user?.email && notification.sender_email) &&
    !sameIdentity(notification.sender_email, user?.email);
  // offered only once we know the sender is not followed yet
  // a moderation decision about the member (issue 32): its page offers "Contester la décision"
  const aboutMe = notification.type === 'report_update' && notification.message !== REPORT_CLOSED;
  const canFollowBack =
    useFollowsSender(user?.email ?? null, notification.sender_email, followItem) === false && followItem;

  const openMessages = () => {
    void markRead(notification.id);
    onNavigate?.();
    navigate('/messages');
  };

  // what the notification is about, opened by a tap anywhere on its row (issue 30)
  const target =
    notification.type === 'message'
      ? '/messages'
      : aboutMe
        ? '/moderation'
        : notification.video_id > 0
          ? `/video/${notification.video_id}`
          : notification.type === 'follow' && notification.sender_pseudo
            ? userPath(notification.sender_pseudo)
            : notification.type === 'gift'
              ? '/coins/received'
              : notification.type === 'data_export'
                ? '/mes-donnees'
                : null;
  const openRow = (event: MouseEvent<HTMLLIElement>) => {
    // the row's own links and buttons do their own thing; a text selection is not a tap
    if (!target || (event.target as HTMLElement).closest('a, button')) return;
    if (window.getSelection()?.toString()) return;
    if (unread) void markRead(notification.id);
    onNavigate?.();
    navigate(target);
  };

  const doFollowBack = async () => {
    if (!user || following) return;
    setFollowing(true);
    try {
      await followBack(user.email, notification.sender_email);
      markFollowed(client, user.email, { email: notification.sender_email, pseudo: notification.sender_pseudo });
      toast.success(FOLLOW_BACK_OK);
    } catch (err) {
      toast.error(FOLLOW_BACK_FAILED, { detail: errorMessage(err) });
    } finally {
      setFollowing(false);
    }
  };

  const remove = async (button: HTMLButtonElement) => {
    // Keep the keyboard focus nearby: the next (or previous) item, else the heading.
    const item = button.closest('li');
    const sibling = (item?.nextElementSibling ?? item?.previousElementSibling) as HTMLElement | null;
    const heading = button.closest('[data-notifications]')?.querySelector<HTMLElement>('h1, h2');
    const pending = removeNotification(notification.id);
    (sibling?.querySelector<HTMLElement>('.notif__delete') ?? heading)?.focus();
    try {
      await pending;
    } catch (err) {
      toast.error(DELETE_FAILED, { detail: errorMessage(err) });
    }
  };

  // The server's message is a whole sentence that already starts with the sender's pseudo
  // ("hugo a aimé ta vidéo"): the pseudo is shown once, as the sender, followed by the rest.
  const rest = messageAfterSender(notification.message, notification.sender_pseudo);
  const text = (linkSender: boolean) => (
    <>
      {linkSender && notification.sender_pseudo ? (
        <Link to={userPath(notification.sender_pseudo)} className="notif__sender" onClick={onNavigate}>
          {sender}
        </Link>
      ) : (
        <span className="notif__sender">{sender}</span>
      )}
      {/* the platform's own notices are not a sentence about a member: 'EVO : Votre vidéo…' */}
      {notification.sender_pseudo ? ' ' : ' : '}
      <span className="notif__message">{rest}</span>
    </>
  );

  return (
    // the keyboard reaches the same place through the item's own link or button ("Voir…")
    <li className={`notif${unread ? ' notif--unread' : ''}${target ? ' notif--link' : ''}`} onClick={openRow}>
      <span className={`notif__icon notif__icon--${TYPES[notification.type] ? notification.type : 'default'}`}>
        <Icon size={18} />
        <span className="sr-only">{label}</span>
      </span>
      <div className="notif__body">
        {notification.type === 'message' ? (
          <button type="button" className="notif__open" onClick={openMessages}>
            {text(false)}
          </button>
        ) : (
          <p className="notif__text">{text(true)}</p>
        )}
        <p className="notif__meta">
          {unread ? <span className="notif__dot">Non lue</span> : null}
          {notification.created_at ? (
            <time dateTime={isoDate(notification.created_at)} title={formatFullDate(notification.created_at)}>
              {formatRelative(notification.created_at)}
            </time>
          ) : null}
        </p>
        {notification.video_id > 0 ||
        canFollowBack ||
        aboutMe ||
        notification.type === 'message' ||
        notification.type === 'data_export' ? (
          <div className="notif__actions">
            {notification.type === 'message' ? (
              <button type="button" className="btn btn--small btn--secondary" onClick={openMessages}>
                {SEE_MESSAGES}
              </button>
            ) : null}
            {notification.type === 'data_export' ? (
              <Link to="/mes-donnees" className="btn btn--small btn--secondary" onClick={onNavigate}>
                Voir mes données
              </Link>
            ) : null}
            {aboutMe ? (
              <Link to="/moderation" className="btn btn--small btn--secondary" onClick={onNavigate}>
                {SEE_DECISIONS}
              </Link>
            ) : null}
            {notification.video_id > 0 ? (
              <Link
                to={`/video/${notification.video_id}`}
                className="btn btn--small btn--secondary"
                onClick={onNavigate}
              >
                {SEE_VIDEO}
              </Link>
            ) : null}
            {canFollowBack ? (
              <button
                type="button"
                className="btn btn--small btn--primary"
                disabled={following}
                onClick={() => void doFollowBack()}
              >
                {FOLLOW_BACK}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
      <button
        type="button"
        className="notif__delete"
        aria-label={`Supprimer la notification de ${sender}`}
        title="Supprimer"
        onClick={(event) => void remove(event.currentTarget)}
      >
        <CloseIcon size={18} />
      </button>
    </li>
  );
}
