import { z } from 'zod';

/**
 * Shapes the API answers and pushes, shared by the server (read models, routes, projectors) and the
 * web app: a renamed field fails to compile on both sides. Each is a zod schema and the type of the
 * same name (`z.infer`): the server types its answers with the type, the web app parses them with
 * the schema (`web/src/api/decode.ts`).
 */

/** A log position as a decimal string (an EventStoreDB position has 128 bits: never a JS number). */
export const PositionString = z.string();
export type PositionString = z.infer<typeof PositionString>;

export const NOTIFICATION_TYPES = [
  'follow',
  'like',
  'comment',
  'message',
  'gift',
  'report_update',
  'data_export',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** What the API and the pushes answer for a notification. */
export const NotificationView = z.object({
  /** the decimal log position of the event that caused it */
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  sender_email: z.string(),
  sender_pseudo: z.string(),
  message: z.string(),
  video_id: z.number(),
  seen: z.union([z.literal(0), z.literal(1)]),
  created_at: z.string(),
});
export type NotificationView = z.infer<typeof NotificationView>;

/** A private message (the fields of the product's "Message"). */
export const MessageView = z.object({
  id: z.number(),
  sender_email: z.string(),
  receiver_email: z.string(),
  sender_pseudo: z.string(),
  receiver_pseudo: z.string(),
  sender_profile_picture: z.string(),
  receiver_profile_picture: z.string(),
  content: z.string(),
  created_at: z.string(),
});
export type MessageView = z.infer<typeof MessageView>;

/** What the API answers for a comment. */
export const CommentView = z.object({
  id: z.number(),
  parent_id: z.number().nullable(),
  user_pseudo: z.string(),
  user_profile_picture: z.string(),
  content: z.string(),
  created_at: z.string(),
  /** a deleted member's comment kept as a placeholder ('Membre supprimé', no text) because replies depend on it */
  author_deleted: z.boolean().optional(),
});
export type CommentView = z.infer<typeof CommentView>;

const progress = { done: z.number(), rate: z.number(), etaSeconds: z.number(), fraction: z.number() };

/** A rebuild of the read models, as answered and pushed to administrators. */
export const RebuildView = z.discriminatedUnion('status', [
  z.object({ status: z.literal('idle'), ...progress }),
  z.object({ status: z.literal('running'), startedAt: z.string(), ...progress }),
  z.object({
    status: z.literal('done'),
    startedAt: z.string(),
    finishedAt: z.string(),
    events: z.number(),
    seconds: z.number(),
    ...progress,
  }),
  z.object({ status: z.literal('failed'), startedAt: z.string(), error: z.string(), ...progress }),
]);
export type RebuildView = z.infer<typeof RebuildView>;

/** A conversation the member deleted, up to a message id ('conversation:deleted', `SyncPayload`). */
export const HiddenConversation = z.object({ other_email: z.string(), up_to_message_id: z.number() });
export type HiddenConversation = z.infer<typeof HiddenConversation>;

/**
 * What a member missed while disconnected, sent as 'sync' right after they connect. `position` is
 * how far the read models were when read: the client keeps the highest position it has seen (sync
 * or push) and sends it back as `auth.since` next time.
 */
export const SyncPayload = z.object({
  /** notifications created or marked read after `since`, oldest change first (upsert by id) */
  notifications: z.array(NotificationView),
  /** notifications deleted after `since` */
  deleted_notification_ids: z.array(z.string()),
  /** messages sent or received after `since`, oldest first */
  messages: z.array(MessageView),
  /** conversations the member deleted after `since` (from another device) */
  hidden_conversations: z.array(HiddenConversation),
  unread: z.number(),
  position: PositionString,
  /** the catch-up does not hold all that was missed (more than it sends at once, or no `since`): reload the lists over HTTP */
  truncated: z.boolean(),
});
export type SyncPayload = z.infer<typeof SyncPayload>;

/** The answer of most writes: a French confirmation (the read-your-writes position is a header). */
export const MessageAnswer = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof MessageAnswer>;
