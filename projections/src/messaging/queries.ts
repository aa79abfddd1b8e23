import { positionKey, type LogPosition } from '@evo/domain';
import type { HiddenConversation, InboxEntry } from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import {
  CONVERSATIONS,
  MAILBOXES,
  toMessageView,
  type ConversationDoc,
  type MailboxDoc,
  type MessageView,
} from './messages-projector';

export const MAILBOX_LIMIT = 1000;

export function messagingQueries(read: ReadStore) {
  const mailboxes = read.collection<MailboxDoc>(MAILBOXES);
  const conversations = read.collection<ConversationDoc>(CONVERSATIONS);
  return {
    /** every message the member sent or received and still sees, oldest first (the latest MAILBOX_LIMIT) */
    async allOf(ownerId: string): Promise<MessageView[]> {
      const docs = await mailboxes.find(
        { owner_id: ownerId, hidden: false },
        { sort: { id: -1 }, limit: MAILBOX_LIMIT },
      );
      return docs.reverse().map(toMessageView);
    },
    /** one conversation as the member sees it, oldest first */
    async thread(ownerId: string, otherId: string): Promise<MessageView[]> {
      const docs = await mailboxes.find(
        { owner_id: ownerId, other_id: otherId, hidden: false },
        { sort: { id: -1 }, limit: MAILBOX_LIMIT },
      );
      return docs.reverse().map(toMessageView);
    },
    /** one entry per other party, newest conversation first */
    async inbox(ownerId: string): Promise<InboxEntry[]> {
      const docs = await conversations.find({ owner_id: ownerId, visible: true }, { sort: { last_pos: -1 } });
      return docs.map((c) => ({
        other_email: c.other_email,
        other_pseudo: c.other_pseudo,
        other_profile_picture: c.other_profile_picture,
        last_message: toMessageView(c.last_message),
      }));
    },
    /** messages received or sent after `since` that the member still sees, oldest first */
    async since(ownerId: string, since: LogPosition, limit: number) {
      const docs = await mailboxes.find(
        { owner_id: ownerId, pos: { $gt: positionKey(since) } },
        { sort: { pos: 1 }, limit: limit + 1 },
      );
      return {
        messages: docs
          .slice(0, limit)
          .filter((m) => !m.hidden)
          .map(toMessageView),
        truncated: docs.length > limit,
      };
    },
    /** conversations the member deleted after `since` (from another device) */
    async hiddenSince(ownerId: string, since: LogPosition): Promise<HiddenConversation[]> {
      const docs = await conversations.find(
        { owner_id: ownerId, hidden_pos: { $gt: positionKey(since) } },
        { sort: { hidden_pos: 1 } },
      );
      return docs.map((c) => ({ other_email: c.other_email, up_to_message_id: c.hidden_up_to }));
    },
  };
}
