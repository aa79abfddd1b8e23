import { beforeEach, describe, expect, it } from 'vitest';
import { normalizeNotification } from './api';
import { applyNewNotification, applySync, applyUnread, getNotificationsState, resetNotifications } from './store';

/** EventStoreDB positions (commit << 64 | prepare): two events of one commit differ only in prepare. */
const esdbId = (commit: bigint, prepare: bigint) => ((commit << 64n) | prepare).toString();
const a = esdbId(7000n, 7000n);
const b = esdbId(7000n, 7100n);
const c = esdbId(7200n, 7200n);

const note = (id: string | number, created_at = '2026-03-01T10:00:00.000Z') => ({
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

  it('keeps ids as decimal strings, accepting the plain numbers of older servers', () => {
    expect(normalizeNotification(note(a))?.id).toBe(a);
    expect(normalizeNotification(note(12))?.id).toBe('12');
    for (const bad of ['abc', '012', '0', 1.5, -3, null]) expect(normalizeNotification(note(bad as never))).toBeNull();
  });

  it('tells apart notifications whose positions share their commit half, newest first', () => {
    applyNewNotification({ notification: note(a), unread: 1 });
    applyNewNotification({ notification: note(b), unread: 2 });
    applyNewNotification({ notification: note(c), unread: 3 });
    expect(ids()).toEqual([
      [c, false],
      [b, false],
      [a, false],
    ]);
    applyUnread({ unread: 2, read: b });
    expect(ids()).toEqual([
      [c, false],
      [b, true],
      [a, false],
    ]);
    applyUnread({ unread: 1, all_read_up_to: a });
    expect(ids()).toEqual([
      [c, false],
      [b, true],
      [a, true],
    ]);
    applyUnread({ unread: 1, deleted: a });
    expect(ids()).toEqual([
      [c, false],
      [b, true],
    ]);
    applySync({ notifications: [], deleted_notification_ids: [b], unread: 1 });
    expect(ids()).toEqual([[c, false]]);
  });

  it('marks read up to an id by number, not by text', () => {
    applyNewNotification({ notification: note('9'), unread: 1 });
    applyNewNotification({ notification: note('10'), unread: 2 });
    applyUnread({ unread: 1, all_read_up_to: '9' });
    expect(ids()).toEqual([
      ['10', false],
      ['9', true],
    ]);
  });
});
