/**
 * Personal data in events (issue 31, crypto-shredding): for each event type that holds some, the
 * data field naming the member whose key encrypts it (the owner) and its personal fields, each with
 * what it reads as once that key is destroyed. Every other field of every event is kept in clear:
 * ids, coin amounts, postings, dates, statuses, and the platform's own texts (docs/personal-data.md
 * says why).
 *
 * An erased field keeps the event valid against its schema, so projectors and deciders still run
 * on it: the email and pseudo stay unique per member (the users read model indexes them), the
 * others are one fixed value.
 */
import { DEFAULT_PROFILE_PICTURE } from '../identity/rules';

/** How a personal field reads once its owner's key is destroyed. */
export type ErasedAs =
  /** '' */
  | 'empty'
  /** ERASED_TEXT: the field's schema needs a non-empty text */
  | 'text'
  /** an address of the member's own at a domain that receives nothing (.invalid, RFC 2606) */
  | 'email'
  /** ERASED_PSEUDO_PREFIX + the member's id */
  | 'pseudo'
  /** the default picture */
  | 'picture'
  /** ERASED_FILE: a path no file has */
  | 'file'
  /** ERASED_SECRET: a password hash no password matches (not a hash at all) */
  | 'secret';

export interface PersonalFields {
  /** the data field holding the owner's member id */
  owner: string;
  /** personal field → what it reads as once erased */
  fields: Readonly<Record<string, ErasedAs>>;
}

export const ERASED_TEXT = 'Contenu supprimé';
export const ERASED_PSEUDO_PREFIX = 'supprime-';
export const ERASED_EMAIL_DOMAIN = 'membre-supprime.invalid';
export const ERASED_FILE = '/uploads/videos/supprimee';
export const ERASED_SECRET = 'supprimé';

const reservation: PersonalFields = { owner: 'userId', fields: { value: 'text' } };

/** Event type → its owner field and personal fields. Types not listed hold no personal data. */
export const PERSONAL_FIELDS: Readonly<Record<string, PersonalFields>> = {
  UserRegistered: {
    owner: 'userId',
    fields: { email: 'email', pseudo: 'pseudo', passwordHash: 'secret', bio: 'empty', profilePicture: 'picture' },
  },
  ProfileUpdated: { owner: 'userId', fields: { bio: 'empty', profilePicture: 'picture' } },
  PasswordChanged: { owner: 'userId', fields: { passwordHash: 'secret' } },
  ValueReserved: reservation,
  ValueReleased: reservation,
  CommentPosted: { owner: 'authorId', fields: { content: 'text' } },
  MessageSent: { owner: 'senderId', fields: { content: 'text' } },
  VideoUploaded: { owner: 'ownerId', fields: { title: 'empty', description: 'empty', filePath: 'file' } },
  VideoReported: { owner: 'reporterId', fields: { reason: 'text' } },
  DecisionAppealed: { owner: 'subjectId', fields: { text: 'text' } },
};

/**
 * Streams named by a personal value (the uniqueness claims of `reservationStream`: an email, a
 * pseudo, a pseudo's skeleton): the log stores them under a keyed hash of the name, as
 * `<kind>~<hash>`, so that no stream id holds the value. Answers the kind, or undefined for a
 * stream named by ids only.
 */
export function personalStreamKind(streamId: string): 'email' | 'pseudo' | 'pseudoskeleton' | undefined {
  const dash = streamId.indexOf('-');
  const kind = dash < 0 ? '' : streamId.slice(0, dash);
  return kind === 'email' || kind === 'pseudo' || kind === 'pseudoskeleton' ? kind : undefined;
}

/** What a personal field reads as once its owner's (`ownerId`) key is destroyed. */
export function erasedValue(as: ErasedAs, ownerId: string): string {
  switch (as) {
    case 'empty':
      return '';
    case 'text':
      return ERASED_TEXT;
    case 'email':
      return `${ERASED_PSEUDO_PREFIX}${ownerId}@${ERASED_EMAIL_DOMAIN}`;
    case 'pseudo':
      return `${ERASED_PSEUDO_PREFIX}${ownerId}`;
    case 'picture':
      return DEFAULT_PROFILE_PICTURE;
    case 'file':
      return ERASED_FILE;
    case 'secret':
      return ERASED_SECRET;
  }
}

/** The owner of an event's personal data, undefined when its type holds none (or the field is missing). */
export function personalDataOwner(type: string, data: unknown): string | undefined {
  const spec = PERSONAL_FIELDS[type];
  if (!spec || typeof data !== 'object' || data === null) return undefined;
  const owner = (data as Record<string, unknown>)[spec.owner];
  return typeof owner === 'string' && owner.length > 0 ? owner : undefined;
}
