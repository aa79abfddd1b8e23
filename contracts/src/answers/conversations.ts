import { z } from 'zod';
import { getRoute } from '../api-route';
import { CommentView, MessageView, NotificationView } from '../views';

/** Answers of the comments, messages and notifications routes. */

/** GET /api/videos/:id/comments: oldest first, each top-level comment followed by its replies. */
export const CommentsAnswer = z.object({ items: z.array(CommentView) });
export type CommentsAnswer = z.infer<typeof CommentsAnswer>;

/** POST /api/videos/:id/comment → 201 */
export const CommentPostedAnswer = z.object({ message: z.string(), item: CommentView });
export type CommentPostedAnswer = z.infer<typeof CommentPostedAnswer>;

/** GET /api/messages/received/:email, GET /api/messages/conversation/:email/:pseudo: oldest first. */
export const MessageList = z.array(MessageView);
export type MessageList = z.infer<typeof MessageList>;

/** POST /api/messages → 201 */
export const MessageSentAnswer = z.object({ message: z.string(), item: MessageView });
export type MessageSentAnswer = z.infer<typeof MessageSentAnswer>;

/** An entry of GET /api/messages/inbox: the other party and the last message exchanged. */
export const InboxEntry = z.object({
  other_email: z.string(),
  other_pseudo: z.string(),
  other_profile_picture: z.string(),
  last_message: MessageView,
});
export type InboxEntry = z.infer<typeof InboxEntry>;

/** GET /api/notifications?email=: newest first. */
export const NotificationList = z.array(NotificationView);
export type NotificationList = z.infer<typeof NotificationList>;

/** GET /api/notifications/unread */
export const UnreadAnswer = z.object({ unread: z.number() });
export type UnreadAnswer = z.infer<typeof UnreadAnswer>;

/** The comments, messages and notifications routes the web app reads. */
export const conversationRoutes = {
  comments: getRoute('/api/videos/:id/comments', CommentsAnswer),
  received: getRoute('/api/messages/received/:email', MessageList),
  conversation: getRoute('/api/messages/conversation/:email/:pseudo', MessageList),
  notifications: getRoute('/api/notifications', NotificationList),
  unread: getRoute('/api/notifications/unread', UnreadAnswer),
};
