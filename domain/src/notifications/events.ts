import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';

/**
 * Notifications are a projection of the facts (follows, likes, comments, messages, gifts,
 * report updates): their id is the position of the event that caused them, as a decimal string
 * (an EventStoreDB position has 128 bits), so a replay gives the same ids. Reading and deleting
 * them are facts of `notifications-<userId>`.
 */
const id = z.string().min(1);

/** A notification id: the decimal form of a log position (at most 2^128 - 1: 39 digits). */
export const NOTIFICATION_ID_PATTERN = /^[1-9]\d{0,38}$/;
/** Facts written before ids were strings hold numbers (SQLite positions, the same value). */
const notificationIdField = z.union([z.string().regex(NOTIFICATION_ID_PATTERN), z.number().int().positive()]);
const upToNotificationIdField = z.union([z.string().regex(/^(0|[1-9]\d{0,38})$/), z.number().int().nonnegative()]);

export const NotificationReadSchema = z.object({ userId: id, notificationId: notificationIdField });
export const AllNotificationsReadSchema = z.object({ userId: id, upToNotificationId: upToNotificationIdField });
export const NotificationDeletedSchema = z.object({ userId: id, notificationId: notificationIdField });

export type NotificationRead = DomainEvent<'NotificationRead', z.infer<typeof NotificationReadSchema>>;
export type AllNotificationsRead = DomainEvent<'AllNotificationsRead', z.infer<typeof AllNotificationsReadSchema>>;
export type NotificationDeleted = DomainEvent<'NotificationDeleted', z.infer<typeof NotificationDeletedSchema>>;
export type NotificationEvent = NotificationRead | AllNotificationsRead | NotificationDeleted;

export const notificationEventSchemas = {
  NotificationRead: NotificationReadSchema,
  AllNotificationsRead: AllNotificationsReadSchema,
  NotificationDeleted: NotificationDeletedSchema,
} as const;

/** Reading and deleting a member's notifications. */
export const notificationsStream = (userId: string) => `notifications-${userId}`;
