import {
  notificationIdOf,
  notificationsCausedBy,
  notificationsDecider,
  notificationsStream,
  type LogPosition,
  type NotificationCommand,
  type NotificationId,
} from '@evo/domain';
import { handleCommand, type CommandContext, type EventStore } from '@evo/infra';

/**
 * Who notification `id` was sent to: read from the log, where it is the position of the event
 * that caused it (never from the read model). null when no event there notifies anyone.
 * Only ask for ids that name a notification: EventStoreDB cannot read $all from a position that is
 * not an event's (the routes check the id against the read model first).
 */
export async function notificationRecipients(events: EventStore, id: NotificationId): Promise<string[] | null> {
  const position = BigInt(id);
  for await (const batch of events.readAll(position - 1n, 1)) {
    const event = batch[0];
    if (!event || event.position !== position) return null;
    const recipients = notificationsCausedBy(event).map((n) => n.recipientId);
    return recipients.length > 0 ? recipients : null;
  }
  return null;
}

async function decide(
  events: EventStore,
  userId: string,
  command: NotificationCommand,
  ctx: CommandContext,
): Promise<LogPosition | undefined> {
  return (await handleCommand(events, notificationsStream(userId), notificationsDecider, command, ctx)).position;
}

/**
 * Mark one of the member's notifications read, or delete it (someone else's: 403; unknown or
 * deleted: 404): who it was sent to is read from the log.
 */
export async function onOwnNotification(
  events: EventStore,
  userId: string,
  type: 'MarkNotificationRead' | 'DeleteNotification',
  notificationId: NotificationId,
  ctx: CommandContext,
) {
  const recipients = await notificationRecipients(events, notificationId);
  return decide(events, userId, { type, userId, notificationId, recipients }, ctx);
}

/** Every notification that exists now (id up to the log's last position) becomes read. */
export async function markAllNotificationsRead(events: EventStore, userId: string, ctx: CommandContext) {
  const last = await events.lastPosition();
  return decide(
    events,
    userId,
    { type: 'MarkAllNotificationsRead', userId, upToNotificationId: notificationIdOf(last ?? 0n) },
    ctx,
  );
}
