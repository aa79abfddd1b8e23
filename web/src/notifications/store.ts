import { useSyncExternalStore } from 'react';
import type { PushEvents } from '@evo/contracts';
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
 * The member's notifications, shared by the top-bar dropdown and /notifications.
 * A tiny external store: the bell keeps it live (socket events), the screens read it.
 * Unread counts from the server win; local changes adjust it; it never goes below 0.
 */

export interface NotificationsState {
  owner: string | null;
  items: AppNotification[];
  unread: number;
  /** True once the list was loaded for `owner`. */
  loaded: boolean;
  loading: boolean;
}

const EMPTY: NotificationsState = { owner: null, items: [], unread: 0, loaded: false, loading: false };
let state: NotificationsState = EMPTY;
const listeners = new Set<() => void>();
let loadToken = 0;
/** Counts the changes a load's answer may predate (the member's own, and pushes). */
let changes = 0;
/** The member's writes not answered yet: a load waits for them (read-your-writes then shows them). */
const writing = new Set<Promise<unknown>>();

function set(next: Partial<NotificationsState>) {
  state = { ...state, ...next };
  if (state.unread < 0 || !Number.isFinite(state.unread)) state = { ...state, unread: 0 };
  for (const listener of listeners) listener();
}

/** A change a load that is under way may not have seen. */
function change(next: Partial<NotificationsState>) {
  changes += 1;
  set(next);
}

/** Sends a write of the member's: a load under way meanwhile may predate it, and asks again. */
async function write<T>(request: Promise<T>): Promise<T> {
  writing.add(request);
  try {
    return await request;
  } finally {
    writing.delete(request);
    changes += 1;
  }
}

/** How many times a load asks again when something changed while it was asked (then it keeps the answer). */
const LOAD_ATTEMPTS = 3;

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

export function subscribeNotifications(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getNotificationsState(): NotificationsState {
  return state;
}

export function useNotificationsState(): NotificationsState {
  return useSyncExternalStore(subscribeNotifications, getNotificationsState, getNotificationsState);
}

/** Clears everything (logout / another member). */
export function resetNotifications(owner: string | null = null) {
  loadToken += 1;
  set({ ...EMPTY, owner });
}

/** GET /api/notifications?email=; a failure is logged only (the product error catalogue). */
export async function loadNotifications(email: string): Promise<void> {
  if (state.owner !== email) resetNotifications(email);
  const token = ++loadToken;
  set({ loading: true });
  try {
    for (let attempt = 1; ; attempt++) {
      // the member's own writes first: the server answers with them applied
      await Promise.allSettled([...writing]);
      const before = changes;
      // The list is paged by the server: the badge comes from its counter when it answers.
      const [items, unread] = await Promise.all([fetchNotifications(email), fetchUnreadCount().catch(() => null)]);
      if (token !== loadToken) return;
      // a read, a deletion or a push meanwhile, or a write still unanswered: this answer may be
      // older than what is shown
      if ((changes !== before || writing.size > 0) && attempt < LOAD_ATTEMPTS) continue;
      const sorted = sortNewestFirst(items);
      set({ items: sorted, unread: unread ?? countUnread(sorted), loaded: true, loading: false });
      readOpenConversation();
      return;
    }
  } catch (err) {
    if (token !== loadToken) return;
    console.warn('Chargement des notifications impossible', err);
    set({ loading: false });
  }
}

/**
 * The conversation on screen (the other party's email): its message notifications are read as they
 * come, so that the bell does not count a message the member is reading (issue 30).
 */
let openConversation: string | null = null;

const fromOpenConversation = (n: AppNotification) =>
  openConversation !== null &&
  n.type === 'message' &&
  !n.seen &&
  n.sender_email.trim().toLowerCase() === openConversation.trim().toLowerCase();

function readOpenConversation() {
  for (const n of state.items) if (fromOpenConversation(n)) void markRead(n.id);
}

/** A conversation is shown (its party's email), or none (null). */
export function setOpenConversation(otherEmail: string | null): void {
  openConversation = otherEmail;
  readOpenConversation();
}

/** 'notification:new' {notification, unread} */
export function applyNewNotification({
  notification,
  unread,
}: Pick<PushEvents['notification:new'], 'notification' | 'unread'>) {
  const known = state.items.some((n) => n.id === notification.id);
  const items = merge(state.items, [notification]);
  const fallback = known ? countUnread(items) : state.unread + (notification.seen ? 0 : 1);
  change({ items, unread: clampUnread(unread, fallback) });
  if (fromOpenConversation(notification)) void markRead(notification.id);
}

type UnreadPush = PushEvents['notification:unread'];

/** 'notification:unread' {unread, read? | deleted? | all_read_up_to?} (also from the member's other tabs). */
export function applyUnread({ unread, read, deleted, all_read_up_to }: Omit<UnreadPush, 'position'>) {
  let items = state.items;
  const upTo = all_read_up_to === '0' ? undefined : all_read_up_to;
  if (read !== undefined) items = items.map((n) => (n.id === read ? { ...n, seen: 1 as const } : n));
  if (deleted !== undefined) items = items.filter((n) => n.id !== deleted);
  if (upTo !== undefined)
    items = items.map((n) => (compareNotificationIds(n.id, upTo) <= 0 ? { ...n, seen: 1 as const } : n));
  change({ items, unread: clampUnread(unread, state.unread) });
}

type SyncPush = PushEvents['sync'];

/**
 * 'sync' {notifications, deleted_notification_ids, unread, truncated}: what changed while
 * disconnected (upserted by id); when truncated, the list is loaded again over HTTP.
 */
export function applySync(
  payload: Pick<SyncPush, 'notifications' | 'deleted_notification_ids' | 'unread'> & { truncated?: boolean },
) {
  const deleted = new Set(payload.deleted_notification_ids);
  const items = merge(state.items, payload.notifications).filter((n) => !deleted.has(n.id));
  change({ items, unread: clampUnread(payload.unread, countUnread(items)) });
  readOpenConversation();
  if (payload.truncated === true && state.owner) void loadNotifications(state.owner);
}

/** Marks one as read (message notifications, the product states and transitions). */
export async function markRead(id: string): Promise<void> {
  const target = state.items.find((n) => n.id === id);
  if (!target || target.seen) return;
  change({
    items: state.items.map((n) => (n.id === id ? { ...n, seen: 1 as const } : n)),
    unread: Math.max(0, state.unread - 1),
  });
  try {
    await write(markNotificationRead(id));
  } catch {
    // not saved: the next load shows it unread again
  }
}

export async function markAllRead(): Promise<void> {
  const before = state.items;
  change({ items: state.items.map((n) => ({ ...n, seen: 1 as const })), unread: 0 });
  try {
    await write(markAllNotificationsRead());
  } catch (err) {
    change({ items: before, unread: countUnread(before) });
    throw err;
  }
}

/** Deleting an unread notification lowers the badge (never below 0). */
export async function removeNotification(id: string): Promise<void> {
  const target = state.items.find((n) => n.id === id);
  if (!target) return;
  const before = state.items;
  change({ items: state.items.filter((n) => n.id !== id), unread: state.unread - (target.seen ? 0 : 1) });
  try {
    await write(deleteNotification(id));
  } catch (err) {
    change({ items: before, unread: countUnread(before) });
    throw err;
  }
}
