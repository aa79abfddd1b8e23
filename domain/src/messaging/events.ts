import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';

/**
 * Private messages. Stream `conversation-<idA>-<idB>` (the two user ids sorted).
 */
const id = z.string().min(1);

export const MessageSentSchema = z.object({
  messageId: z.number().int().positive(),
  senderId: id,
  receiverId: id,
  content: z.string().min(1),
});
/** The requester no longer sees the messages up to `upToMessageId`; the other party keeps theirs. */
export const ConversationDeletedSchema = z.object({
  userId: id,
  otherId: id,
  upToMessageId: z.number().int().nonnegative(),
});

export type MessageSent = DomainEvent<'MessageSent', z.infer<typeof MessageSentSchema>>;
export type ConversationDeleted = DomainEvent<'ConversationDeleted', z.infer<typeof ConversationDeletedSchema>>;

export type ConversationEvent = MessageSent | ConversationDeleted;
export type MessagingEvent = ConversationEvent;

export const messagingEventSchemas = {
  MessageSent: MessageSentSchema,
  ConversationDeleted: ConversationDeletedSchema,
} as const;
