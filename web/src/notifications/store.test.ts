import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from '../api/queries';
import type { AppNotification } from './api';
import { fetchNotifications, fetchUnreadCount, markAllNotificationsRead, markNotificationRead } from './api';
import { notificationPushes } from './live';
import {
  markAllRead,
  notificationsQuery,
  readNotifications,
  setLiveNotifications,
  setOpenConversation,
  unreadQuery,
} from './store';

vi.mock('./api', async (actual) => ({
  ...(await actual<typeof import('./api')>()),
  fetchNotifications: vi.fn(),
  fetchUnreadCount: vi.fn(),
  markAllNotificationsRead: vi.fn(),
  markNotificationRead: vi.fn(async () => ({})),
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

const BOB = 'bob@x.fr';
let client: QueryClient;
/** The cache as the screens read it. */
const shown = () => readNotifications(client, BOB);
const ids = () => shown().items.map((n) => [n.id, n.seen]);
/** The pushes, as the socket hands them to the shell's handlers. */
const applyNewNotification = (p: { notification: AppNotification; unread: number }) =>
  notificationPushes(client, BOB)['notification:new']?.({ ...p, position: '1' });
const applyUnread = (p: { unread: number; read?: string; deleted?: string; all_read_up_to?: string }) =>
  notificationPushes(client, BOB)['notification:unread']?.({ ...p, position: '1' });
const applySync = (p: { notifications: AppNotification[]; deleted_notification_ids: string[]; unread: number }) =>
  notificationPushes(client, BOB).sync?.({ ...p, truncated: false } as never);
/** The list and the badge, asked as the bell's mount does. */
const loadNotifications = () =>
  Promise.all([client.fetchQuery(notificationsQuery(BOB)), client.fetchQuery(unreadQuery())]);

describe('notification ids in the web client', () => {
  beforeEach(() => {
    client = createQueryClient();
    client.setQueryData(notificationsQuery(BOB).queryKey, []);
  });

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
    client = createQueryClient();
    client.setQueryData(notificationsQuery(BOB).queryKey, []);
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
    const loading = loadNotifications();
    await settle();
    const marking = markAllRead(client, BOB);
    expect(shown().unread).toBe(0);
    stale.resolve(unreadList());
    await settle();
    // the answer predates the write: the badge stays at 0, nothing asked before the write is answered
    expect(shown().unread).toBe(0);
    expect(fetchNotifications).toHaveBeenCalledTimes(1);
    put.resolve({});
    await marking;
    await loading;
    expect(fetchNotifications).toHaveBeenCalledTimes(2);
    expect(shown()).toMatchObject({ unread: 0, loaded: true });
    expect(ids()).toEqual([
      ['2', 1],
      ['1', 1],
    ]);
  });

  it('a write sent before the load is waited for; a push during the load makes it ask again', async () => {
    const put = deferred<unknown>();
    vi.mocked(markAllNotificationsRead).mockReturnValueOnce(put.promise as never);
    const marking = markAllRead(client, BOB);
    const answer = deferred<AppNotification[]>();
    vi.mocked(fetchNotifications).mockReturnValueOnce(answer.promise).mockResolvedValueOnce(readList());
    vi.mocked(fetchUnreadCount).mockResolvedValue(0);
    const loading = loadNotifications();
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
    expect(shown().unread).toBe(0);
  });

  it('keeps the answer after a few attempts when changes never stop', async () => {
    let n = 0;
    vi.mocked(fetchNotifications).mockImplementation(async () => {
      applyNewNotification({ notification: note(String(10 + n++)), unread: 3 });
      return readList();
    });
    vi.mocked(fetchUnreadCount).mockResolvedValue(0);
    await loadNotifications();
    expect(fetchNotifications).toHaveBeenCalledTimes(3);
    expect(shown()).toMatchObject({ unread: 0, loaded: true });
  });
});

describe('pushes in the cache', () => {
  beforeEach(() => {
    client = createQueryClient();
    vi.mocked(markNotificationRead).mockClear();
  });

  it('a push before the list is answered sets the badge and makes no partial list', () => {
    applyNewNotification({ notification: note('5'), unread: 4 });
    expect(client.getQueryData(notificationsQuery(BOB).queryKey)).toBeUndefined();
    expect(shown()).toMatchObject({ items: [], unread: 4, loaded: false });
  });

  it('a truncated catch-up asks the list again; a full one does not', () => {
    client.setQueryData(notificationsQuery(BOB).queryKey, [note('1')]);
    const stale = () => client.getQueryState(notificationsQuery(BOB).queryKey)?.isInvalidated;
    const sync = (truncated: boolean) =>
      notificationPushes(client, BOB).sync?.({
        notifications: [note('2')],
        deleted_notification_ids: ['1'],
        messages: [],
        hidden_conversations: [],
        unread: 1,
        position: '9',
        truncated,
      } as never);
    sync(false);
    expect(ids()).toEqual([['2', 0]]);
    expect(stale()).toBe(false);
    sync(true);
    expect(stale()).toBe(true);
  });

  it('a message from the conversation on screen is read as it comes: the badge does not count it', () => {
    client.setQueryData(notificationsQuery(BOB).queryKey, []);
    const stop = setLiveNotifications(client, BOB);
    setOpenConversation('Alice@x.fr');
    try {
      applyNewNotification({ notification: { ...note('7'), type: 'message' }, unread: 1 });
      expect(markNotificationRead).toHaveBeenCalledWith('7');
      expect(shown()).toMatchObject({ unread: 0, items: [{ id: '7', seen: 1 }] });
      // another sender's message still counts
      applyNewNotification({ notification: { ...note('8'), type: 'message', sender_email: 'eve@x.fr' }, unread: 1 });
      expect(shown().unread).toBe(1);
    } finally {
      setOpenConversation(null);
      stop();
    }
  });

  it('a message from the conversation on screen is read even when the list is not in the cache yet', () => {
    client.removeQueries({ queryKey: notificationsQuery(BOB).queryKey });
    client.setQueryData(unreadQuery().queryKey, { unread: 0 });
    const stop = setLiveNotifications(client, BOB);
    setOpenConversation('alice@x.fr');
    try {
      applyNewNotification({ notification: { ...note('17'), type: 'message' }, unread: 1 });
      expect(markNotificationRead).toHaveBeenCalledWith('17');
      expect(shown()).toMatchObject({ unread: 0, loaded: false });
    } finally {
      setOpenConversation(null);
      stop();
    }
  });

  it("the list answered while a conversation is on screen: that conversation's unread messages are read", async () => {
    client.removeQueries({ queryKey: notificationsQuery(BOB).queryKey });
    vi.mocked(markNotificationRead).mockClear();
    vi.mocked(fetchNotifications).mockResolvedValueOnce([
      { ...note('21'), type: 'message' },
      { ...note('22'), type: 'message', sender_email: 'eve@x.fr' },
    ]);
    vi.mocked(fetchUnreadCount).mockResolvedValueOnce(2);
    await client.fetchQuery(unreadQuery());
    const stop = setLiveNotifications(client, BOB);
    setOpenConversation('alice@x.fr');
    try {
      await client.fetchQuery(notificationsQuery(BOB));
      expect(vi.mocked(markNotificationRead).mock.calls).toEqual([['21']]);
      expect(ids()).toEqual([
        ['22', 0],
        ['21', 1],
      ]);
      expect(shown().unread).toBe(1);
    } finally {
      setOpenConversation(null);
      stop();
    }
    // once the member has left the conversation, a list answered leaves them as they are
    vi.mocked(fetchNotifications).mockResolvedValueOnce([{ ...note('23'), type: 'message' }]);
    await client.refetchQueries({ queryKey: notificationsQuery(BOB).queryKey });
    expect(vi.mocked(markNotificationRead).mock.calls).toEqual([['21']]);
  });

  it('a message already marked is not marked again by a list answered before the server applied it', async () => {
    client.setQueryData(notificationsQuery(BOB).queryKey, []);
    client.setQueryData(unreadQuery().queryKey, { unread: 0 });
    const stop = setLiveNotifications(client, BOB);
    setOpenConversation('alice@x.fr');
    try {
      applyNewNotification({ notification: { ...note('31'), type: 'message' }, unread: 1 });
      await vi.waitFor(() => expect(markNotificationRead).toHaveBeenCalledTimes(1));
      // the mark is answered; a list asked before it still holds the message unread, the server's count too
      vi.mocked(fetchNotifications).mockResolvedValueOnce([{ ...note('31'), type: 'message' }]);
      vi.mocked(fetchUnreadCount).mockResolvedValueOnce(1);
      await loadNotifications();
      expect(vi.mocked(markNotificationRead).mock.calls).toEqual([['31']]);
      expect(ids()).toEqual([['31', 1]]);
      // the badge is the server's, not lowered a second time
      expect(shown().unread).toBe(1);
    } finally {
      setOpenConversation(null);
      stop();
    }
  });
});
