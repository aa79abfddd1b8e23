import type { Decider } from '../shared/decider';
import { notFound } from '../shared/errors';
import type { ConversationEvent } from './events';
import { MESSAGING_MESSAGES, checkPrivateMessage, type PrivateMessageFacts } from './rules';

export type ConversationCommand =
  | ({ type: 'SendMessage'; messageId: number } & PrivateMessageFacts)
  | { type: 'DeleteConversation'; userId: string; otherId: string };

export type ConversationState = {
  /** highest message id of the conversation, 0 before any */
  lastMessageId: number;
  /** per member: they no longer see the messages up to this id */
  hiddenUpTo: Readonly<Record<string, number>>;
};

/**
 * A message id must be above every id already in the conversation, so that "hidden up to id N"
 * means "every message before the deletion". Two members writing at once may draw ids in one order
 * and append in the other: the later append is refused with this error and the handler draws a
 * new id.
 */
export class StaleMessageIdError extends Error {
  constructor(readonly messageId: number) {
    super(`message id ${messageId} is not above the conversation's last one`);
    this.name = 'StaleMessageIdError';
  }
}

export const conversationDecider: Decider<ConversationCommand, ConversationEvent, ConversationState> = {
  initialState: () => ({ lastMessageId: 0, hiddenUpTo: {} }),
  evolve(state, event) {
    switch (event.type) {
      case 'MessageSent':
        return { ...state, lastMessageId: Math.max(state.lastMessageId, event.data.messageId) };
      case 'ConversationDeleted':
        return { ...state, hiddenUpTo: { ...state.hiddenUpTo, [event.data.userId]: event.data.upToMessageId } };
    }
  },
  decide(command, state) {
    if (command.type === 'SendMessage') {
      const { content, senderId, receiverId } = checkPrivateMessage(command);
      if (command.messageId <= state.lastMessageId) throw new StaleMessageIdError(command.messageId);
      return [{ type: 'MessageSent', data: { messageId: command.messageId, senderId, receiverId, content } }];
    }
    if (state.lastMessageId === 0) throw notFound(MESSAGING_MESSAGES.conversationNotFound);
    // already hidden up to the last message: nothing more to hide (a repeated delete succeeds)
    if ((state.hiddenUpTo[command.userId] ?? 0) >= state.lastMessageId) return [];
    return [
      {
        type: 'ConversationDeleted',
        data: { userId: command.userId, otherId: command.otherId, upToMessageId: state.lastMessageId },
      },
    ];
  },
};
