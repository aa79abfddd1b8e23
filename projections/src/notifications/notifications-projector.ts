import {
  NOTIFICATION_RULES,
  NOTIFICATION_TEXTS,
  notificationIdFrom,
  notificationIdOf,
  notificationsCausedBy,
  positionKey,
  positionToString,
  type NotificationId,
} from '@evo/domain';
import type { Doc, ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce, insertOnce } from '../runtime/write-once';
import { goneMember } from '../runtime/member-gone';
import { memberCopies, shownAs } from '../runtime/own-copies';
import type { NotificationView } from '@evo/contracts';

/** What the API and the pushes answer (the contract the web app compiles against too). */
export type { NotificationView };

export const NOTIFICATIONS = 'notifications';
export const NOTIFICATION_COUNTERS = 'notification_counters';

/**
 * A member's notification (the product entities, "Notification"). `id` is the position of the event
 * that caused it, in decimal (a string: an EventStoreDB position does not fit in a JS number), and
 * `cause_pos` the same position in fixed width, which orders the list. A deleted notification
 * stays as a tombstone (`deleted`), so that a client catching up after a disconnection learns it
 * is gone. `video_id` is 0 when none; `_pos` is the position of its last change.
 */
export interface NotificationDoc extends Doc, NotificationView {
  /** `${user_id}:${id}` */
  _id: string;
  /** positionKey of the causing event */
  cause_pos: string;
  user_id: string;
  sender_id: string | null;
  deleted: boolean;
  _pos?: string;
}

/** Unread notifications of a member (recounted at every read or deletion, so never below 0). */
export interface NotificationCounterDoc extends Doc {
  _id: string;
  user_id: string;
  unread: number;
}

export const toNotificationView = (n: NotificationDoc): NotificationView => ({
  id: n.id,
  type: n.type,
  sender_email: n.sender_email,
  sender_pseudo: n.sender_pseudo,
  message: n.message,
  video_id: n.video_id,
  seen: n.seen,
  created_at: n.created_at,
});

export const notificationDocId = (userId: string, id: NotificationId) => `${userId}:${id}`;
/** The list order of notification `id` (and the bound of `before` / read-all filters). */
export const notificationCauseKey = (id: NotificationId) => positionKey(BigInt(id));
/** The unread filter: served by the { user_id, seen, deleted } index. */
export const unreadFilter = (userId: string) => ({ user_id: userId, seen: 0, deleted: false });

async function unreadOf(store: ReadStore, userId: string): Promise<number> {
  const c = await store.collection<NotificationCounterDoc>(NOTIFICATION_COUNTERS).findOne({ _id: userId });
  return c?.unread ?? 0;
}

/**
 * Notifications of every member, from the facts listed in the domain's NOTIFICATION_RULES, and
 * their unread counters. Pushes to `user:<id>`: `notification:new` { notification, unread,
 * position } and `notification:unread` { unread, position, read? | deleted? | all_read_up_to? }.
 */
/** the members who cause notifications (the projector's own copy: it never reads `users`) */
const senders = memberCopies('notification_senders', ['email', 'pseudo']);

export const notificationsProjector: Projector = {
  name: 'notifications',
  collections: [NOTIFICATIONS, NOTIFICATION_COUNTERS, senders.collection],
  eventTypes: [
    // the facts that notify (the domain's rules) and the members' reads and deletions
    ...(Object.keys(NOTIFICATION_RULES) as Array<keyof typeof NOTIFICATION_RULES>),
    'NotificationRead',
    'NotificationDeleted',
    'AllNotificationsRead',
    ...senders.eventTypes,
  ],
  indexes: {
    [NOTIFICATIONS]: [
      { key: { user_id: 1, deleted: 1, cause_pos: -1 } },
      // the API checks that an id names a notification before reading the log at that position
      { key: { id: 1 } },
      { key: { user_id: 1, seen: 1, deleted: 1 } },
      { key: { user_id: 1, _pos: 1 } },
      { key: { sender_id: 1 } },
    ],
  },
  async project(event, store, ctx) {
    await senders.project(event, store);
    const notifications = store.collection<NotificationDoc>(NOTIFICATIONS);
    const counters = store.collection<NotificationCounterDoc>(NOTIFICATION_COUNTERS);
    const position = positionToString(event.position);

    /** Unread count recomputed from the notifications themselves (reads and deletions). */
    const recount = async (userId: string) => {
      const unread = await notifications.countDocuments(unreadFilter(userId));
      await applyOnce(counters, userId, event.position, { $set: { user_id: userId, unread } }, { upsert: true });
      return unreadOf(store, userId);
    };

    const gone = goneMember(event);
    if (gone) {
      // a deleted member's notifications go, and those they caused: their receivers count them no more
      await notifications.deleteMany({ user_id: gone });
      await counters.deleteOne({ _id: gone });
      const caused = await notifications.find({ sender_id: gone }, { projection: { user_id: 1 } });
      await notifications.deleteMany({ sender_id: gone });
      for (const userId of new Set(caused.map((n) => n.user_id))) {
        const unread = await recount(userId);
        ctx.push(`user:${userId}`, 'notification:unread', { unread, position });
      }
      return;
    }
    switch (event.type) {
      case 'NotificationRead':
      case 'NotificationDeleted': {
        const userId = event.data.userId;
        const notificationId = notificationIdFrom(event.data.notificationId);
        const read = event.type === 'NotificationRead';
        await applyOnce(notifications, notificationDocId(userId, notificationId), event.position, {
          $set: read ? { seen: 1 } : { deleted: true },
        });
        ctx.push(`user:${userId}`, 'notification:unread', {
          unread: await recount(userId),
          position,
          ...(read ? { read: notificationId } : { deleted: notificationId }),
        });
        return;
      }
      case 'AllNotificationsRead': {
        const userId = event.data.userId;
        const upTo = notificationIdFrom(event.data.upToNotificationId);
        const key = positionKey(event.position);
        await notifications.updateMany(
          { user_id: userId, seen: 0, cause_pos: { $lte: notificationCauseKey(upTo) }, _pos: { $lt: key } },
          { $set: { seen: 1, _pos: key } },
        );
        ctx.push(`user:${userId}`, 'notification:unread', {
          unread: await recount(userId),
          position,
          all_read_up_to: upTo,
        });
        return;
      }
      default:
        break;
    }

    const specs = notificationsCausedBy(event);
    if (specs.length === 0) return;
    // the whole position: its commit half alone is shared by the events of one EventStoreDB commit
    const id = notificationIdOf(event.position);
    const causePos = positionKey(event.position);
    const seen = new Set<string>();
    for (const spec of specs) {
      // one notification per member per event (its id is the event's position)
      if (seen.has(spec.recipientId)) continue;
      seen.add(spec.recipientId);
      const sender = spec.senderId ? await senders.find(store, spec.senderId) : null;
      const docId = notificationDocId(spec.recipientId, id);
      // the document without its _id, as the update sets it (no copy of a whole document to drop it)
      const fields = {
        id,
        cause_pos: causePos,
        user_id: spec.recipientId,
        type: spec.type,
        sender_id: spec.senderId,
        ...shownAs('sender', sender, ['email', 'pseudo']),
        message: NOTIFICATION_TEXTS[spec.type](sender?.pseudo ?? '', spec.detail),
        video_id: spec.videoId,
        seen: 0 as const,
        deleted: false,
        created_at: event.metadata.at,
      };
      // written once, by this event only (its id is the event's position): inserted unless there
      // (a redelivery), in one write; its later changes are guarded by `_pos`, as applyOnce's are
      const created = await insertOnce(notifications, { _id: docId, ...fields, _pos: causePos });
      // guarded on its own: after a crash between the two writes, the redelivery still counts it once
      await applyOnce(
        counters,
        spec.recipientId,
        event.position,
        { $set: { user_id: spec.recipientId }, $inc: { unread: 1 } },
        { upsert: true },
      );
      if (created && ctx.live) {
        const doc: NotificationDoc = { _id: docId, ...fields };
        ctx.push(`user:${spec.recipientId}`, 'notification:new', {
          notification: toNotificationView(doc),
          unread: await unreadOf(store, spec.recipientId),
          position,
        });
      }
    }
  },
};
