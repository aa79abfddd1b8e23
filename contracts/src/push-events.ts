import type { CommentView, MessageView, NotificationView, PositionString, RebuildView, SyncPayload } from './views';
import type { GiftReceivedPush, WalletChangedPush } from './coins';

/**
 * Every event the server pushes over Socket.IO, with its payload. Projectors push through
 * `ProjectionContext.push` and the web app listens through `useSocketEvent`, both typed by this
 * map: an event renamed, or a payload field renamed, fails to compile on both sides.
 *
 * Rooms: `user:<id>` (a member's devices), `admins`, `catalogue` (every connected client),
 * `video:<id>` (cards on screen, joined with 'video:watch').
 */
export interface PushEvents {
  /** to `user:<id>`: the member's role changed (the app reloads the session: Admin link, admin room) */
  'session:changed': { role: string };
  /** to `video:<id>` and its owner: the counters of a video */
  'video:counters': { videoId: number; likes_count: number; views_count: number };
  /** to `video:<id>`: a new comment, with the video's comment count after it */
  'comment:new': { videoId: number; comment: CommentView; comments_count: number; position: PositionString };
  /** to `user:<id>`: a new notification and the unread count after it */
  'notification:new': { notification: NotificationView; unread: number; position: PositionString };
  /** to `user:<id>`: the unread count after a read, a deletion or "all read" (on any device) */
  'notification:unread': {
    unread: number;
    position: PositionString;
    read?: string;
    deleted?: string;
    all_read_up_to?: string;
  };
  /** to both members' `user:<id>`: a private message, sent or received */
  'message:new': { message: MessageView; position: PositionString };
  /** to `user:<id>`: the member deleted a conversation (from any device) */
  'conversation:deleted': { other_email: string; up_to_message_id: number; position: PositionString };
  /** to `user:<id>`: the member's coins after any movement, and their received gifts not yet claimed */
  'wallet:changed': WalletChangedPush;
  /** to the receiver's `user:<id>`: a gift they received */
  'gift:received': GiftReceivedPush;
  /** to `user:<id>`: someone followed the member (their own profile's counters change) */
  'follow:new': { followerPseudo: string };
  /** to `admins`: a new report to moderate */
  'report:new': { id: number };
  /** to `admins`: a report's status or sanction message changed */
  'report:updated': { id: number; status: string; admin_response: string | null; position: PositionString };
  /** to `user:<id>`: a moderation decision about the member, an answer to their appeal, a restriction taken or lifted */
  'moderation:changed': { position: PositionString };
  /** to `catalogue`: a gift of the catalogue was added, edited or removed */
  'catalogue:changed': { gift_id: number; removed?: true; position: PositionString };
  /** to `user:<id>` (their own archive) or `admins` (an administrator's): a data export progressed, is ready or failed */
  'data-export:changed': { export_id: string; member_id: string; position: PositionString };
  /** to `admins`: a rebuild's progress, about four times a second, then its end */
  'rebuild:progress': RebuildView;
  /** to one socket, right after it connects: what the member missed */
  sync: SyncPayload;
}

export type PushEventName = keyof PushEvents;
export type PushPayload<E extends PushEventName> = PushEvents[E];
