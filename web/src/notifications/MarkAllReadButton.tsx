import { useToast } from '../shell/toast';
import type { AppNotification } from './api';
import { useNotificationActions } from './store';

const MARK_ALL = 'Tout marquer comme lu';
const MARK_ALL_FAILED = 'Impossible de marquer les notifications comme lues.';

/** "Tout marquer comme lu", in the bell's dropdown and on /notifications: idle when nothing is left to mark. */
export function MarkAllReadButton({
  email,
  items,
  unread,
  className,
}: {
  email: string | null;
  items: readonly AppNotification[];
  unread: number;
  className: string;
}) {
  const toast = useToast();
  const { markAllRead } = useNotificationActions(email);
  const readAll = async () => {
    try {
      await markAllRead();
    } catch {
      toast.error(MARK_ALL_FAILED);
    }
  };
  return (
    <button
      type="button"
      className={className}
      disabled={unread === 0 && items.every((n) => n.seen)}
      onClick={() => void readAll()}
    >
      {MARK_ALL}
    </button>
  );
}
