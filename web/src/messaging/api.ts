import { MessageSentAnswer, type HiddenConversation, type MessageView } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';

/** the product entities, "Message" (a picture is '' when the member has none). */
export type Message = MessageView;

/** A conversation hidden for me up to a message id ('conversation:deleted', sync.hidden_conversations). */
export type { HiddenConversation };

const enc = encodeURIComponent;

export interface OutgoingMessage {
  senderEmail: string;
  receiverEmail: string;
  content: string;
}

/**
 * POST /api/messages {senderEmail, receiverEmail, content} (the conversation view
 * posts to /api/messages/) → 201 {message: 'Message envoyé.', item: Message}: the stored message.
 */
export async function sendMessage(
  message: OutgoingMessage,
  path: '/api/messages' | '/api/messages/' = '/api/messages',
): Promise<Message> {
  return decode(MessageSentAnswer, await api.post(path, { ...message })).item;
}

/** DELETE /api/messages/:email/:otherEmail (hidden for me only; the other party keeps them) */
export function deleteConversation(email: string, otherEmail: string) {
  return api.delete(`/api/messages/${enc(email)}/${enc(otherEmail)}`);
}
