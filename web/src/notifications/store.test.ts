import { beforeEach, describe, expect, it } from 'vitest';
import type { AppNotification } from './api';
import { applyNewNotification, applySync, applyUnread, getNotificationsState, resetNotifications } from './store';

/** EventStoreDB positions (commit << 64 | prepare): two events of one commit differ only in prepare. */
const esdbId = (commit: bigint, prepare: bigint) => ((commit << 64n) | prepare).toString();
const a = esdbId(7000n, 7000n);
const b = esdbId(7000n, 7100n);
const c = esdbId(7200n, 7200n);

const note = (id: string, created_at = '2026-03-01T10:00:00.000Z'): AppNotification => ({
  id,
  type: 'like',
  sender_email: 'alice@x.fr',
  sender_pseudo: 'alice',
  message: 'alice a aimé votre vidéo',
  video_id: 3,
  seen: 0,
  created_at,
});

const ids = () => getNotificationsState().items.map((n) => [n.id, n.seen]);

describe('notification ids in the web client', () => {
  beforeEach(() => resetNotifications('bob@x.fr'));

  it('tells apart notifications whose positions share their commit half, newest first', () => {
    applyNewNotification({ notification: note(a), unread: 1 });
    applyNewNotification({ notification: note(b), unread: 2 });
    applyNewNotification({ notification: note(c), unread: 3 });
    expect(ids()).toEqual([
      [c, 0],
      [b, 0],
      [a, 0],
    ]);
    applyUnread({ unread: 2, read: b });
    expect(ids()).toEqual([
      [c, 0],
      [b, 1],
      [a, 0],
    ]);
    applyUnread({ unread: 1, all_read_up_to: a });
    expect(ids()).toEqual([
      [c, 0],
      [b, 1],
      [a, 1],
    ]);
    applyUnread({ unread: 1, deleted: a });
    expect(ids()).toEqual([
      [c, 0],
      [b, 1],
    ]);
    applySync({ notifications: [], deleted_notification_ids: [b], unread: 1 });
    expect(ids()).toEqual([[c, 0]]);
  });

  it('marks read up to an id by number, not by text', () => {
    applyNewNotification({ notification: note('9'), unread: 1 });
    applyNewNotification({ notification: note('10'), unread: 2 });
    applyUnread({ unread: 1, all_read_up_to: '9' });
    expect(ids()).toEqual([
      ['10', 0],
      ['9', 1],
    ]);
  });
});
