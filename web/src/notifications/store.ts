import { useEffect } from 'react';
import { hashKey, queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { conversationRoutes, type PushEvents } from '@evo/contracts';
import { routeKey } from '../api/queries';
import {
  compareNotificationIds,
  deleteNotification,
  fetchNotifications,
  fetchUnreadCount,
  markAllNotificationsRead,
  markNotificationRead,
  type AppNotification,
} from './api';

/**
 * The member's notifications in the query cache, shared by the top-bar dropdown and /notifications:
 * the list (GET /api/notifications?email=) and the unread count (GET /api/notifications/unread), kept
 * live by the pushes (web/src/notifications/live.ts) and changed at once by the member's own reads and
 * deletions. The server's unread count wins; local changes adjust it; it never goes below 0.
 */

export const notificationsKey = (email: string) => routeKey(conversationRoutes.notifications, {}, { email });
export const unreadKey = () => routeKey(conversationRoutes.unread, {});

/** Counts the changes an answer under way may predate (the member's own, and pushes). */
let changes = 0;
/** The member's writes not answered yet: a GET waits for them (read-your-writes then shows them). */
const writing = new Set<Promise<unknown>>();

/** How many times a GET asks again when something changed while it was asked (then it keeps the answer). */
const LOAD_ATTEMPTS = 3;

/** Asks after the member's writes are answered, and again when the list changed meanwhile. */
async function freshAnswer<T>(ask: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await Promise.allSettled([...writing]);
    const before = changes;
    const answer = await ask();
    // a read, a deletion or a push meanwhile, or a write still unanswered: this answer may be
    // older than what is shown
    if ((changes !== before || writing.size > 0) && attempt < LOAD_ATTEMPTS) continue;
    return answer;
  }
}

/** The list, newest first; those the member has read are read, whether the server has applied it yet or not. */
export const notificationsQuery = (email: string) =>
  queryOptions({
    queryKey: notificationsKey(email),
    queryFn: async ({ signal }) => {
      const items = await freshAnswer(() => fetchNotifications(email, signal));
      return sortNewestFirst(items.map((n) => (marked.has(n.id) && !n.seen ? { ...n, seen: 1 as const } : n)));
    },
  });

/** The server's unread counter (the list is paged by the server: the badge comes from it). */
export const unreadQuery = () =>
  queryOptions({
    queryKey: unreadKey(),
    queryFn: async ({ signal }) => ({ unread: await freshAnswer(() => fetchUnreadCount(signal)) }),
  });

const countUnread = (items: AppNotification[]) => items.filter((n) => !n.seen).length;
const clampUnread = (value: unknown, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) ? Math.max(0, Math.floor(n)) : Math.max(0, fallback);
};

function sortNewestFirst(items: AppNotification[]): AppNotification[] {
  return [...items].sort((a, b) => {
    const ta = a.created_at ? Date.parse(a.created_at) : NaN;
    const tb = b.created_at ? Date.parse(b.created_at) : NaN;
    if (Number.isFinite(ta) && Number.isFinite(tb) && ta !== tb) return tb - ta;
    return compareNotificationIds(b.id, a.id);
  });
}

function merge(current: AppNotification[], incoming: AppNotification[]): AppNotification[] {
  const byId = new Map(current.map((n) => [n.id, n]));
  for (const n of incoming) byId.set(n.id, n);
  return sortNewestFirst([...byId.values()]);
}

export interface NotificationsState {
  items: AppNotification[];
  unread: number;
  /** the list was answered */
  loaded: boolean;
}

/** What the cache holds: the badge is the server's counter, or counted from the list when it did not answer. */
export function readNotifications(client: QueryClient, email: string): NotificationsState {
  const list = client.getQueryData<AppNotification[]>(notificationsKey(email));
  const items = list ?? [];
  const counter = client.getQueryData<{ unread: number }>(unreadKey());
  return { items, unread: Math.max(0, counter?.unread ?? countUnread(items)), loaded: list !== undefined };
}

/**
 * A change the member or a push made: the list (when it is loaded: a partial one is never made) and
 * the badge, at once. An answer under way meanwhile asks again (`freshAnswer`).
 */
function change(
  client: QueryClient,
  email: string,
  edit: (items: AppNotification[]) => AppNotification[],
  unread: (current: NotificationsState, items: AppNotification[]) => number,
) {
  changes += 1;
  const current = readNotifications(client, email);
  const items = edit(current.items);
  if (current.loaded) client.setQueryData(notificationsKey(email), items);
  client.setQueryData(unreadKey(), { unread: clampUnread(unread(current, items), 0) });
}

/** Sends a write of the member's: an answer under way meanwhile may predate it, and asks again. */
async function write<T>(request: Promise<T>): Promise<T> {
  writing.add(request);
  try {
    return await request;
  } finally {
    writing.delete(request);
    changes += 1;
  }
}

/** Shows a change of the member's at once, then sends it; refused, the list and the badge are put back and the error passed on. */
async function changeAndWrite(
  client: QueryClient,
  email: string,
  edit: (items: AppNotification[]) => AppNotification[],
  unread: (current: NotificationsState) => number,
  request: () => Promise<unknown>,
) {
  const before = readNotifications(client, email).items;
  change(client, email, edit, unread);
  try {
    await write(request());
  } catch (err) {
    change(
      client,
      email,
      () => before,
      () => countUnread(before),
    );
    throw err;
  }
}

/** The list and the badge, asked when a screen showing them mounts (the bell, /notifications). */
export function useNotifications(email: string | null) {
  const list = useQuery({ ...notificationsQuery(email ?? ''), enabled: email !== null });
  const counter = useQuery({ ...unreadQuery(), enabled: email !== null });
  const { error } = list;
  // a failure is logged only (the product error catalogue)
  useEffect(() => {
    if (error) console.warn('Chargement des notifications impossible', error);
  }, [error]);
  const items = list.data ?? [];
  return {
    items,
    unread: Math.max(0, counter.data?.unread ?? countUnread(items)),
    loaded: list.data !== undefined,
    /** the list's GET failed (logged only: the list shows as empty) */
    failed: list.data === undefined && list.error !== null,
    /** asks both again (opening the dropdown) */
    reload: () => void Promise.all([list.refetch(), counter.refetch()]),
  };
}

/**
 * The conversation on screen (the other party's email): its message notifications are read as they
 * come, so that the bell does not count a message the member is reading (issue 30).
 */
let openConversation: string | null = null;
/** The logged-in member's cache, once their pushes are listened to (web/src/notifications/live.ts). */
let live: { client: QueryClient; email: string } | null = null;

export function setLiveNotifications(client: QueryClient, email: string): () => void {
  const mine = { client, email };
  live = mine;
  // a list answered while a conversation is on screen may hold its messages unread (a push that came
  // while the list was asked could not be marked in it)
  const listHash = hashKey(notificationsKey(email));
  const stopWatching = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual === true) return;
    if (event.query.queryHash === listHash) readOpenConversation(client, email);
  });
  return () => {
    stopWatching();
    if (live === mine) live = null;
  };
}

export const fromOpenConversation = (n: AppNotification) =>
  openConversation !== null &&
  n.type === 'message' &&
  !n.seen &&
  n.sender_email.trim().toLowerCase() === openConversation.trim().toLowerCase();

export function readOpenConversation(client: QueryClient, email: string) {
  for (const n of readNotifications(client, email).items)
    if (fromOpenConversation(n)) void markRead(client, email, n.id);
}

/** A conversation is shown (its party's email), or none (null). */
export function setOpenConversation(otherEmail: string | null): void {
  openConversation = otherEmail;
  if (live) readOpenConversation(live.client, live.email);
}

/** 'notification:new' {notification, unread} */
export function applyNewNotification(
  client: QueryClient,
  email: string,
  { notification, unread }: Pick<PushEvents['notification:new'], 'notification' | 'unread'>,
) {
  change(
    client,
    email,
    (items) => merge(items, [notification]),
    (current, items) => {
      const known = current.items.some((n) => n.id === notification.id);
      const fallback = known ? countUnread(items) : current.unread + (notification.seen ? 0 : 1);
      return clampUnread(unread, fallback);
    },
  );
  // read even when the list is not in the cache (not asked yet, or asked and not answered)
  if (fromOpenConversation(notification)) void markRead(client, email, notification.id, notification);
}

type UnreadPush = PushEvents['notification:unread'];

/** 'notification:unread' {unread, read? | deleted? | all_read_up_to?} (also from the member's other tabs). */
export function applyUnread(
  client: QueryClient,
  email: string,
  { unread, read, deleted, all_read_up_to }: Omit<UnreadPush, 'position'>,
) {
  const upTo = all_read_up_to === '0' ? undefined : all_read_up_to;
  change(
    client,
    email,
    (items) => {
      let next = items;
      if (read !== undefined) next = next.map((n) => (n.id === read ? { ...n, seen: 1 as const } : n));
      if (deleted !== undefined) next = next.filter((n) => n.id !== deleted);
      if (upTo !== undefined)
        next = next.map((n) => (compareNotificationIds(n.id, upTo) <= 0 ? { ...n, seen: 1 as const } : n));
      return next;
    },
    (current) => clampUnread(unread, current.unread),
  );
}

type SyncPush = PushEvents['sync'];

/**
 * 'sync' {notifications, deleted_notification_ids, unread, truncated}: what changed while
 * disconnected (upserted by id); when truncated, the list is asked again.
 */
export function applySync(
  client: QueryClient,
  email: string,
  payload: Pick<SyncPush, 'notifications' | 'deleted_notification_ids' | 'unread'> & { truncated?: boolean },
) {
  const deleted = new Set(payload.deleted_notification_ids);
  change(
    client,
    email,
    (items) => merge(items, payload.notifications).filter((n) => !deleted.has(n.id)),
    (_, items) => clampUnread(payload.unread, countUnread(items)),
  );
  readOpenConversation(client, email);
  if (payload.truncated === true) void client.invalidateQueries({ queryKey: notificationsKey(email) });
}

/**
 * The reads sent (and not refused): a notification is marked once, wherever the list stands, even
 * when a list answered before the server applied the read still shows it unread.
 */
const marked = new Set<string>();

/**
 * Marks one as read (message notifications, the product states and transitions); `known` is the
 * notification itself when the list in the cache may not hold it.
 */
export async function markRead(client: QueryClient, email: string, id: string, known?: AppNotification): Promise<void> {
  const target = readNotifications(client, email).items.find((n) => n.id === id) ?? known;
  if (!target || target.seen || marked.has(id)) return;
  marked.add(id);
  change(
    client,
    email,
    (items) => items.map((n) => (n.id === id ? { ...n, seen: 1 as const } : n)),
    (current) => current.unread - 1,
  );
  try {
    await write(markNotificationRead(id));
  } catch {
    // not saved: the next load shows it unread again, and it can be marked again
    marked.delete(id);
  }
}

export function markAllRead(client: QueryClient, email: string): Promise<void> {
  return changeAndWrite(
    client,
    email,
    (items) => items.map((n) => ({ ...n, seen: 1 as const })),
    () => 0,
    markAllNotificationsRead,
  );
}

/** Deleting an unread notification lowers the badge (never below 0). */
export async function removeNotification(client: QueryClient, email: string, id: string): Promise<void> {
  const target = readNotifications(client, email).items.find((n) => n.id === id);
  if (!target) return;
  await changeAndWrite(
    client,
    email,
    (items) => items.filter((n) => n.id !== id),
    (current) => current.unread - (target.seen ? 0 : 1),
    () => deleteNotification(id),
  );
}

/** The member's reads and deletions, on their cache (nothing when nobody is logged in). */
export function useNotificationActions(email: string | null) {
  const client = useQueryClient();
  return {
    markRead: (id: string) => (email ? markRead(client, email, id) : Promise.resolve()),
    markAllRead: () => (email ? markAllRead(client, email) : Promise.resolve()),
    remove: (id: string) => (email ? removeNotification(client, email, id) : Promise.resolve()),
  };
}
