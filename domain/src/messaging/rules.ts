import { z } from 'zod';
import { DomainError, NOT_YOURS, invalid, forbidden, notFound } from '../shared/errors';
import { containsProfanity } from './profanity';
import { cleanUserText } from '../shared/text';

/** One conversation between two members: `conversation-<idA>-<idB>`, ids sorted. */
export const conversationStream = (a: string, b: string) => {
  const [x, y] = a < b ? [a, b] : [b, a];
  return `conversation-${x}-${y}`;
};

export const MESSAGE_LIMITS = { contentMax: 2000 } as const;

/** French texts of the product validation rules, "Private message", and of the messaging calls. */
export const MESSAGING_MESSAGES = {
  empty: 'Le message ne peut pas être vide.',
  tooLong: `Le message ne doit pas dépasser ${MESSAGE_LIMITS.contentMax} caractères.`,
  notLoggedIn: 'Utilisateur non connecté.',
  receiverNotFound: 'Destinataire introuvable.',
  profanity: 'Ce message contient un mot inapproprié. Veuillez reformuler.',
  notFollowing: 'Vous devez suivre cet utilisateur pour lui envoyer un MP.',
  notAllowed: NOT_YOURS.action,
  forbidden: NOT_YOURS.access,
  conversationNotFound: 'Conversation introuvable.',
  userNotFound: 'Utilisateur introuvable.',
  sent: 'Message envoyé.',
  conversationDeleted: 'Conversation supprimée.',
} as const;

/** What the handler found out about a private message before deciding. */
export interface PrivateMessageFacts {
  content: string;
  /** the session user; null without a session */
  senderId: string | null;
  /** the member owning receiverEmail; null when there is none */
  receiverId: string | null;
  /** does `following-<senderId>` say the sender follows the receiver? */
  senderFollowsReceiver: boolean;
}

/** Check 1 of a private message: its text, cleaned (NFKC, no invisible characters, trimmed), then empty or too long. */
export function checkMessageText(raw: unknown): string {
  const content = typeof raw === 'string' ? cleanUserText(raw) : '';
  if (content.length === 0) throw invalid(MESSAGING_MESSAGES.empty);
  if (content.length > MESSAGE_LIMITS.contentMax) throw invalid(MESSAGING_MESSAGES.tooLong);
  return content;
}

/**
 * The checks of a private message, in exactly this order (the product validation rules): empty, no session,
 * unknown receiver, forbidden word, not following. Answers the trimmed text.
 */
export function checkPrivateMessage(f: PrivateMessageFacts): { content: string; senderId: string; receiverId: string } {
  const content = checkMessageText(f.content);
  if (!f.senderId) throw new DomainError(MESSAGING_MESSAGES.notLoggedIn, 'unauthenticated');
  if (!f.receiverId) throw notFound(MESSAGING_MESSAGES.receiverNotFound);
  if (containsProfanity(content)) throw invalid(MESSAGING_MESSAGES.profanity);
  if (!f.senderFollowsReceiver) throw forbidden(MESSAGING_MESSAGES.notFollowing);
  return { content, senderId: f.senderId, receiverId: f.receiverId };
}

/** The body of POST /api/messages. The sender is always the session user. */
export const MessageBody = z.object({
  /** checked against the session user's email by the handler (anything but their email: 403) */
  senderEmail: z.unknown().optional(),
  /** anything but a member's email: 404 'Destinataire introuvable.' (after the checks before it) */
  receiverEmail: z.unknown().optional(),
  // anything but a string is an empty message (checked first, as the specification orders)
  content: z.unknown().transform((v) => (typeof v === 'string' ? v : '')),
});
