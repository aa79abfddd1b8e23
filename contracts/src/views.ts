/**
 * Shapes the API answers and pushes, shared by the server (read models, routes, projectors) and the
 * web app: a renamed field fails to compile on both sides. Types only: nothing here runs.
 */

/** A log position as a decimal string (an EventStoreDB position has 128 bits: never a JS number). */
export type PositionString = string;

export const NOTIFICATION_TYPES = ['follow', 'like', 'comment', 'message', 'gift', 'report_update'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** What the API and the pushes answer for a notification. */
export interface NotificationView {
  /** the decimal log position of the event that caused it */
  id: string;
  type: NotificationType;
  sender_email: string;
  sender_pseudo: string;
  message: string;
  video_id: number;
  seen: 0 | 1;
  created_at: string;
}

/** A private message (the fields of the product's "Message"). */
export interface MessageView {
  id: number;
  sender_email: string;
  receiver_email: string;
  sender_pseudo: string;
  receiver_pseudo: string;
  sender_profile_picture: string;
  receiver_profile_picture: string;
  content: string;
  created_at: string;
}

/** What the API answers for a comment. */
export interface CommentView {
  id: number;
  parent_id: number | null;
  user_pseudo: string;
  user_profile_picture: string;
  content: string;
  created_at: string;
}

/** A gift a member received, as their received-gifts table lists it. */
export interface ReceivedGiftView {
  id: number;
  name: string;
  emoji: string;
  sender_pseudo: string;
  sender_email: string;
  coin_cost: number;
  /** coins credited to the receiver (the cost less the platform's fee) */
  amount: number;
  sent_at: string;
  claimed: boolean;
}

/** A member's coins: the balance they can spend, and the part of it earned from gifts (withdrawable). */
export interface WalletCoins {
  coins_balance: number;
  coins_withdrawable: number;
}

/** A rebuild of the read models, as answered and pushed to administrators. */
export type RebuildView =
  | { status: 'idle'; done: number; rate: number; etaSeconds: number; fraction: number }
  | {
      status: 'running';
      startedAt: string;
      done: number;
      rate: number;
      etaSeconds: number;
      fraction: number;
    }
  | {
      status: 'done';
      startedAt: string;
      finishedAt: string;
      events: number;
      seconds: number;
      done: number;
      rate: number;
      etaSeconds: number;
      fraction: number;
    }
  | {
      status: 'failed';
      startedAt: string;
      error: string;
      done: number;
      rate: number;
      etaSeconds: number;
      fraction: number;
    };

/**
 * What a member missed while disconnected, sent as 'sync' right after they connect. `position` is
 * how far the read models were when read: the client keeps the highest position it has seen (sync
 * or push) and sends it back as `auth.since` next time.
 */
export interface SyncPayload {
  /** notifications created or marked read after `since`, oldest change first (upsert by id) */
  notifications: NotificationView[];
  /** notifications deleted after `since` */
  deleted_notification_ids: string[];
  /** messages sent or received after `since`, oldest first */
  messages: MessageView[];
  /** conversations the member deleted after `since` (from another device) */
  hidden_conversations: Array<{ other_email: string; up_to_message_id: number }>;
  unread: number;
  position: PositionString;
  /** more changed than the server sends at once: reload the lists over HTTP */
  truncated: boolean;
}
