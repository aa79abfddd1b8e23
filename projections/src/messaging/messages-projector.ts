import { positionKey, positionToString } from '@evo/domain';
import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';
import { goneMember } from '../runtime/member-gone';
import { memberCopies, shownAs, type MemberCopy } from '../runtime/own-copies';
import type { MessageView } from '@evo/contracts';

/** What the API and the pushes answer (the contract the web app compiles against too). */
export type { MessageView };

/** Each member's copy of the messages they sent or received (hidden ones stay, flagged). */
export const MAILBOXES = 'mailboxes';
/** One inbox entry per member and other party: the last message. */
export const CONVERSATIONS = 'conversations';

export interface MailboxDoc extends Doc, MessageView {
  /** `${owner_id}:${id}` */
  _id: string;
  owner_id: string;
  other_id: string;
  /** the owner deleted the conversation after this message */
  hidden: boolean;
  /** positionKey of the MessageSent event */
  pos: string;
}

export interface ConversationDoc extends Doc {
  /** `${owner_id}:${other_id}` */
  _id: string;
  owner_id: string;
  other_id: string;
  other_email: string;
  other_pseudo: string;
  other_profile_picture: string;
  last_message: MessageView;
  last_message_id: number;
  /** positionKey of the last message, for "newest first" */
  last_pos: string;
  /** false once the owner deleted it, until a new message */
  visible: boolean;
  /** the owner no longer sees messages up to this id */
  hidden_up_to: number;
  /** positionKey of the owner's last deletion ('' when none) */
  hidden_pos: string;
}

/** what a message shows of each party */
/** both parties of each message (the projector's own copy: it never reads `users`) */
const parties = memberCopies('message_parties', ['email', 'pseudo', 'profile_picture']);

export function toMessageView(m: MessageView): MessageView {
  return {
    id: m.id,
    sender_email: m.sender_email,
    receiver_email: m.receiver_email,
    sender_pseudo: m.sender_pseudo,
    receiver_pseudo: m.receiver_pseudo,
    sender_profile_picture: m.sender_profile_picture,
    receiver_profile_picture: m.receiver_profile_picture,
    content: m.content,
    created_at: m.created_at,
  };
}

/**
 * Private messages: every member's mailbox and inbox. Pushes `message:new` { message, position } to
 * both parties, and `conversation:deleted` { other_email, up_to_message_id, position } to the member
 * who deleted a conversation (their other devices hide it too).
 */
export const messagesProjector: Projector = {
  name: 'messages',
  collections: [MAILBOXES, CONVERSATIONS, parties.collection],
  eventTypes: ['MessageSent', 'ConversationDeleted', ...parties.eventTypes],
  indexes: {
    [MAILBOXES]: [
      { key: { owner_id: 1, hidden: 1, id: 1 } },
      { key: { owner_id: 1, other_id: 1, hidden: 1, id: 1 } },
      { key: { owner_id: 1, pos: 1 } },
      { key: { other_id: 1 } },
    ],
    [CONVERSATIONS]: [
      { key: { owner_id: 1, visible: 1, last_pos: -1 } },
      { key: { owner_id: 1, hidden_pos: 1 } },
      { key: { other_id: 1 } },
    ],
  },
  async project(event, store, ctx) {
    await parties.project(event, store);
    const mailboxes = store.collection<MailboxDoc>(MAILBOXES);
    const conversations = store.collection<ConversationDoc>(CONVERSATIONS);
    const key = positionKey(event.position);
    const position = positionToString(event.position);

    const gone = goneMember(event);
    if (gone) {
      // a deleted member's messages go from both sides: their mailbox and inbox, and every copy
      // and conversation of the members they wrote with
      await mailboxes.deleteMany({ owner_id: gone });
      await mailboxes.deleteMany({ other_id: gone });
      await conversations.deleteMany({ owner_id: gone });
      await conversations.deleteMany({ other_id: gone });
      return;
    }
    if (event.type === 'ProfileUpdated') {
      // the inboxes show the other member's current picture (a $set of the event's value: redelivery-safe)
      await conversations.updateMany(
        { other_id: event.data.userId },
        { $set: { other_profile_picture: event.data.profilePicture } },
      );
      return;
    }
    if (event.type === 'ConversationDeleted') {
      const { userId, otherId, upToMessageId } = event.data;
      await mailboxes.updateMany(
        { owner_id: userId, other_id: otherId, hidden: false, id: { $lte: upToMessageId } },
        { $set: { hidden: true } },
      );
      const id = `${userId}:${otherId}`;
      const before = await conversations.findOne({ _id: id });
      const applied = await applyOnce(conversations, id, event.position, {
        $set: { hidden_up_to: upToMessageId, hidden_pos: key, visible: (before?.last_message_id ?? 0) > upToMessageId },
      });
      if (applied && before) {
        ctx.push(`user:${userId}`, 'conversation:deleted', {
          other_email: before.other_email,
          up_to_message_id: upToMessageId,
          position,
        });
      }
      return;
    }
    if (event.type !== 'MessageSent') return;

    const d = event.data;
    const [sender, receiver] = await Promise.all([parties.find(store, d.senderId), parties.find(store, d.receiverId)]);
    const message: MessageView = {
      id: d.messageId,
      sender_email: sender?.email ?? '',
      receiver_email: receiver?.email ?? '',
      sender_pseudo: sender?.pseudo ?? '',
      receiver_pseudo: receiver?.pseudo ?? '',
      sender_profile_picture: sender?.profile_picture ?? '',
      receiver_profile_picture: receiver?.profile_picture ?? '',
      content: d.content,
      created_at: event.metadata.at,
    };
    const sides: Array<[string, string, MemberCopy | null]> = [[d.senderId, d.receiverId, receiver]];
    if (d.receiverId !== d.senderId) sides.push([d.receiverId, d.senderId, sender]);
    for (const [owner, other, otherUser] of sides) {
      const created = await applyOnce(
        mailboxes,
        `${owner}:${d.messageId}`,
        event.position,
        { $set: { ...message, owner_id: owner, other_id: other, hidden: false, pos: key } },
        { upsert: true },
      );
      await applyOnce(
        conversations,
        `${owner}:${other}`,
        event.position,
        {
          $set: {
            owner_id: owner,
            other_id: other,
            ...shownAs('other', otherUser, ['email', 'pseudo', 'profile_picture']),
            last_message: message,
            last_message_id: d.messageId,
            last_pos: key,
            visible: true,
          },
          $setOnInsert: { hidden_up_to: 0, hidden_pos: '' },
        },
        { upsert: true },
      );
      if (created) ctx.push(`user:${owner}`, 'message:new', { message, position });
    }
  },
};
