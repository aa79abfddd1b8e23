import {
  DomainError,
  MESSAGING_MESSAGES,
  StaleMessageIdError,
  checkMessageText,
  checkPrivateMessage,
  conversationDecider,
  conversationStream,
  followDecider,
  followingStream,
  forbidden,
  notFound,
  type LogPosition,
  type PrivateMessageFacts,
} from '@evo/domain';
import { handleCommand, loadState, type CommandContext, type EventStore, type IdAllocator } from '@evo/infra';
import type { MessageView } from '@evo/contracts';
import { claimsOtherUser, findMemberBy, sessionMember } from '../identity/members';
import { assertNotRestricted } from '../moderation/decision-commands';

export interface SendMessageInput {
  /** the session user; null without a session */
  senderId: string | null;
  /** body senderEmail: must be the session user's when given */
  claimedSenderEmail?: unknown;
  receiverEmail?: unknown;
  content: unknown;
}

/**
 * Send a private message. Checks in exactly the order of the product validation rules: empty (400), no
 * session (401), [a senderEmail that is not the session user's (403)], unknown receiver (404),
 * forbidden word (400), not following the receiver (403, from the sender's `following-<id>`
 * stream). Every refusal happens before a message id is drawn: a refused message appends nothing.
 */
export async function sendMessage(
  events: EventStore,
  ids: IdAllocator,
  input: SendMessageInput,
  ctx: CommandContext,
): Promise<{ message: MessageView; position: LogPosition | undefined }> {
  const content = checkMessageText(input.content);
  if (!input.senderId) throw new DomainError(MESSAGING_MESSAGES.notLoggedIn, 'unauthenticated');
  const sender = await sessionMember(events, input.senderId).catch((e: unknown) => {
    throw e instanceof DomainError ? new DomainError(MESSAGING_MESSAGES.notLoggedIn, 'unauthenticated') : e;
  });
  if (claimsOtherUser(input.claimedSenderEmail, sender.email)) throw forbidden(MESSAGING_MESSAGES.notAllowed);
  // a restriction taken by moderation (issue 32), from the member's stream and the clock
  await assertNotRestricted(events, sender.userId, 'message', ctx.now);
  const receiver =
    typeof input.receiverEmail === 'string' && input.receiverEmail.trim()
      ? await findMemberBy(events, 'email', input.receiverEmail)
      : undefined;
  const facts: PrivateMessageFacts = {
    content,
    senderId: sender.userId,
    receiverId: receiver?.userId ?? null,
    // whom the sender follows, from the follow decider's own fold of `following-<id>`
    senderFollowsReceiver: receiver
      ? (await loadState(events, followingStream(sender.userId), followDecider)).state.following.has(receiver.userId)
      : false,
  };
  checkPrivateMessage(facts);
  const streamId = conversationStream(sender.userId, receiver!.userId);
  // ids come by blocks, in increasing order within a process only: a message whose id is not above
  // the conversation's last one (appended meanwhile, or from another API process's block) draws
  // again, above that one
  let above = 0;
  for (let attempt = 1; ; attempt++) {
    const messageId = await ids.next('message', ctx, { above });
    try {
      const r = await handleCommand(
        events,
        streamId,
        conversationDecider,
        { type: 'SendMessage', messageId, ...facts },
        ctx,
      );
      const sent = r.events[0];
      if (sent.type !== 'MessageSent') throw new Error('unexpected event');
      return {
        position: r.position,
        message: {
          id: messageId,
          sender_email: sender.email,
          receiver_email: receiver!.email,
          sender_pseudo: sender.pseudo,
          receiver_pseudo: receiver!.pseudo,
          sender_profile_picture: sender.profilePicture,
          receiver_profile_picture: receiver!.profilePicture,
          content: sent.data.content,
          created_at: ctx.now.toISOString(),
        },
      };
    } catch (e) {
      // another message of this conversation drew a later id and was appended first: draw again
      if (!(e instanceof StaleMessageIdError) || attempt >= 20) throw e;
      above = e.lastMessageId;
    }
  }
}

/**
 * Hide a conversation for the session user only, up to its last message. `claimedEmail` (the
 * path's first email) must be theirs (403); the other party must exist (404).
 */
export async function deleteConversation(
  events: EventStore,
  input: { userId: string; claimedEmail: unknown; otherEmail: string },
  ctx: CommandContext,
): Promise<LogPosition | undefined> {
  const me = await sessionMember(events, input.userId);
  if (claimsOtherUser(input.claimedEmail, me.email)) throw forbidden(MESSAGING_MESSAGES.forbidden);
  const other = await findMemberBy(events, 'email', input.otherEmail);
  if (!other) throw notFound(MESSAGING_MESSAGES.userNotFound);
  const r = await handleCommand(
    events,
    conversationStream(me.userId, other.userId),
    conversationDecider,
    { type: 'DeleteConversation', userId: me.userId, otherId: other.userId },
    ctx,
  );
  return r.position;
}
