import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppNotification } from './api';
import { fetchNotifications, fetchUnreadCount, markAllNotificationsRead } from './api';
import {
  applyNewNotification,
  applySync,
  applyUnread,
  getNotificationsState,
  loadNotifications,
  markAllRead,
  resetNotifications,
} from './store';

vi.mock('./api', async (actual) => ({
  ...(await actual<typeof import('./api')>()),
  fetchNotifications: vi.fn(),
  fetchUnreadCount: vi.fn(),
  markAllNotificationsRead: vi.fn(),
}));

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
  message: 'alice a aimé ta vidéo',
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

/** A promise settled by the test. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('loading the list while the member or a push changes it', () => {
  beforeEach(() => {
    resetNotifications('bob@x.fr');
    vi.mocked(fetchNotifications).mockReset();
    vi.mocked(fetchUnreadCount).mockReset();
    vi.mocked(markAllNotificationsRead).mockReset();
    applyNewNotification({ notification: note('1'), unread: 1 });
    applyNewNotification({ notification: note('2'), unread: 2 });
  });

  const unreadList = () => [note('2'), note('1')];
  const readList = () => [
    { ...note('2'), seen: 1 as const },
    { ...note('1'), seen: 1 as const },
  ];

  it('an answer older than "Tout marquer comme lu" is not shown: the list is asked again once the write is answered', async () => {
    const stale = deferred<AppNotification[]>();
    const put = deferred<unknown>();
    vi.mocked(fetchNotifications).mockReturnValueOnce(stale.promise).mockResolvedValueOnce(readList());
    vi.mocked(fetchUnreadCount).mockResolvedValueOnce(2).mockResolvedValueOnce(0);
    vi.mocked(markAllNotificationsRead).mockReturnValueOnce(put.promise as never);
    // the bell opens (a load), then everything is marked read before the load answers
    const loading = loadNotifications('bob@x.fr');
    await settle();
    const marking = markAllRead();
    expect(getNotificationsState().unread).toBe(0);
    stale.resolve(unreadList());
    await settle();
    // the answer predates the write: the badge stays at 0, nothing asked before the write is answered
    expect(getNotificationsState().unread).toBe(0);
    expect(fetchNotifications).toHaveBeenCalledTimes(1);
    put.resolve({});
    await marking;
    await loading;
    expect(fetchNotifications).toHaveBeenCalledTimes(2);
    expect(getNotificationsState()).toMatchObject({ unread: 0, loaded: true, loading: false });
    expect(ids()).toEqual([
      ['2', 1],
      ['1', 1],
    ]);
  });

  it('a write sent before the load is waited for; a push during the load makes it ask again', async () => {
    const put = deferred<unknown>();
    vi.mocked(markAllNotificationsRead).mockReturnValueOnce(put.promise as never);
    const marking = markAllRead();
    const answer = deferred<AppNotification[]>();
    vi.mocked(fetchNotifications).mockReturnValueOnce(answer.promise).mockResolvedValueOnce(readList());
    vi.mocked(fetchUnreadCount).mockResolvedValue(0);
    const loading = loadNotifications('bob@x.fr');
    await settle();
    expect(fetchNotifications).not.toHaveBeenCalled();
    put.resolve({});
    await marking;
    await settle();
    expect(fetchNotifications).toHaveBeenCalledTimes(1);
    // the server's push of the same read arrives before the list
    applyUnread({ unread: 0, all_read_up_to: '2' });
    answer.resolve(unreadList());
    await loading;
    expect(fetchNotifications).toHaveBeenCalledTimes(2);
    expect(getNotificationsState().unread).toBe(0);
  });

  it('keeps the answer after a few attempts when changes never stop', async () => {
    let n = 0;
    vi.mocked(fetchNotifications).mockImplementation(async () => {
      applyNewNotification({ notification: note(String(10 + n++)), unread: 3 });
      return readList();
    });
    vi.mocked(fetchUnreadCount).mockResolvedValue(0);
    await loadNotifications('bob@x.fr');
    expect(fetchNotifications).toHaveBeenCalledTimes(3);
    expect(getNotificationsState()).toMatchObject({ unread: 0, loaded: true });
  });
});
