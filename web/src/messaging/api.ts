import { api } from '../api/http';
import { text } from '../api/decode';

/** the product entities, "Message". */
export interface Message {
  id: number;
  sender_email: string;
  receiver_email: string;
  sender_pseudo: string;
  receiver_pseudo: string;
  sender_profile_picture: string | null;
  receiver_profile_picture: string | null;
  content: string;
  created_at: string | null;
}

const picture = (value: unknown) => (typeof value === 'string' && value ? value : null);

export function normalizeMessage(raw: unknown): Message | null {
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as Record<string, unknown>;
  const id = Number(m.id);
  if (!Number.isFinite(id) || typeof m.content !== 'string') return null;
  return {
    id,
    sender_email: text(m.sender_email),
    receiver_email: text(m.receiver_email),
    sender_pseudo: text(m.sender_pseudo),
    receiver_pseudo: text(m.receiver_pseudo),
    sender_profile_picture: picture(m.sender_profile_picture),
    receiver_profile_picture: picture(m.receiver_profile_picture),
    content: m.content,
    created_at: typeof m.created_at === 'string' ? m.created_at : null,
  };
}

export function normalizeMessages(raw: unknown): Message[] {
  const list = Array.isArray(raw) ? raw : (raw as { items?: unknown } | null)?.items;
  if (!Array.isArray(list)) return [];
  return list.map(normalizeMessage).filter((m): m is Message => m !== null);
}

const enc = encodeURIComponent;

/** GET /api/messages/received/:email: the member's messages (grouped by the other party on the client). */
export async function fetchReceived(email: string, signal?: AbortSignal): Promise<Message[]> {
  return normalizeMessages(await api.get<unknown>(`/api/messages/received/${enc(email)}`, { signal }));
}

/** GET /api/messages/conversation/:email/:pseudo → oldest first. */
export async function fetchConversation(email: string, pseudo: string, signal?: AbortSignal): Promise<Message[]> {
  return normalizeMessages(
    await api.get<unknown>(`/api/messages/conversation/${enc(email)}/${enc(pseudo)}`, { signal }),
  );
}

export interface OutgoingMessage {
  senderEmail: string;
  receiverEmail: string;
  content: string;
}

/**
 * POST /api/messages {senderEmail, receiverEmail, content} (the conversation view
 * posts to /api/messages/) → 201 {message: 'Message envoyé.', item: Message}.
 * Returns the stored message when the server sends it back.
 */
export async function sendMessage(
  message: OutgoingMessage,
  path: '/api/messages' | '/api/messages/' = '/api/messages',
) {
  const data = await api.post<{ item?: unknown; message?: unknown } | undefined>(path, { ...message });
  return normalizeMessage(data?.item) ?? normalizeMessage(data?.message) ?? normalizeMessage(data);
}

/** A conversation hidden for me up to a message id ('conversation:deleted', sync.hidden_conversations). */
export interface HiddenConversation {
  other_email: string;
  up_to_message_id: number;
}

export function normalizeHidden(raw: unknown): HiddenConversation[] {
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list
    .map((h) => h as { other_email?: unknown; up_to_message_id?: unknown })
    .filter((h) => typeof h.other_email === 'string' && Number.isFinite(Number(h.up_to_message_id)))
    .map((h) => ({ other_email: h.other_email as string, up_to_message_id: Number(h.up_to_message_id) }));
}

/** DELETE /api/messages/:email/:otherEmail (hidden for me only; the other party keeps them) */
export function deleteConversation(email: string, otherEmail: string) {
  return api.delete(`/api/messages/${enc(email)}/${enc(otherEmail)}`);
}
