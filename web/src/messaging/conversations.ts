import { parseDate, sameIdentity } from '../social/format';
import type { Message } from './api';

/** One conversation of the inbox: the other party and the last message. */
export interface ConversationSummary {
  otherEmail: string;
  otherPseudo: string;
  otherPicture: string | null;
  last: Message;
  /** The last message was sent by me. */
  lastIsMine: boolean;
  count: number;
}

const time = (m: Message) => parseDate(m.created_at)?.getTime() ?? 0;

/** Oldest first, by date then id. */
export function sortMessages(messages: Message[]): Message[] {
  return [...messages].sort((a, b) => time(a) - time(b) || a.id - b.id);
}

/** Adds messages to a list, without duplicates (by id), oldest first. */
export function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return sortMessages([...byId.values()]);
}

/** True when the message is between me and the other party (matched by email, or by pseudo). */
export function isBetween(message: Message, me: string, other: { email?: string | null; pseudo?: string | null }) {
  const mine = sameIdentity(message.sender_email, me);
  const theirs = sameIdentity(message.receiver_email, me);
  if (!mine && !theirs) return false;
  const otherEmail = mine ? message.receiver_email : message.sender_email;
  const otherPseudo = mine ? message.receiver_pseudo : message.sender_pseudo;
  return sameIdentity(otherEmail, other.email) || sameIdentity(otherPseudo, other.pseudo);
}

/** Drops the messages with `otherEmail` up to a message id (a conversation deleted on another device). */
export function hideUpTo(messages: Message[], me: string, otherEmail: string, upToId: number): Message[] {
  return messages.filter((m) => !(m.id <= upToId && isBetween(m, me, { email: otherEmail })));
}

/** Groups a member's messages by the other party, most recent conversation first. */
export function groupConversations(messages: Message[], me: string): ConversationSummary[] {
  const groups = new Map<string, ConversationSummary>();
  for (const message of sortMessages(messages)) {
    const mine = sameIdentity(message.sender_email, me);
    if (!mine && !sameIdentity(message.receiver_email, me)) continue;
    const otherEmail = mine ? message.receiver_email : message.sender_email;
    const key = otherEmail.trim().toLowerCase();
    if (!key) continue;
    const previous = groups.get(key);
    groups.set(key, {
      otherEmail,
      otherPseudo: (mine ? message.receiver_pseudo : message.sender_pseudo) || previous?.otherPseudo || otherEmail,
      otherPicture:
        (mine ? message.receiver_profile_picture : message.sender_profile_picture) || previous?.otherPicture || null,
      last: message,
      lastIsMine: mine,
      count: (previous?.count ?? 0) + 1,
    });
  }
  return [...groups.values()].sort((a, b) => time(b.last) - time(a.last) || b.last.id - a.last.id);
}
