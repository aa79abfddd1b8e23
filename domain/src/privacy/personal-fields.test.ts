import { describe, expect, it } from 'vitest';
import { eventSchemas } from '../all-events';
import { PERSONAL_FIELDS, erasedValue, personalDataOwner, personalStreamKind } from './personal-fields';

/** one valid event of each type holding personal data, as the deciders write them */
const samples: Record<string, Record<string, unknown>> = {
  UserRegistered: {
    userId: 'u-1',
    email: 'lea@example.com',
    pseudo: 'lea',
    passwordHash: '$argon2id$v=19$xyz',
    bio: 'Salut',
    profilePicture: '/uploads/avatars/a.png',
  },
  ProfileUpdated: { userId: 'u-1', bio: 'Nouvelle bio', profilePicture: '/uploads/avatars/b.png' },
  PasswordChanged: { userId: 'u-1', passwordHash: '$argon2id$v=19$abc' },
  ValueReserved: { kind: 'email', value: 'lea@example.com', userId: 'u-1', reservedAt: '2026-01-01T00:00:00.000Z' },
  ValueReleased: { kind: 'pseudo', value: 'lea', userId: 'u-1' },
  CommentPosted: { commentId: 1, videoId: 2, videoOwnerId: 'u-2', authorId: 'u-1', parentId: null, content: 'Bravo' },
  MessageSent: { messageId: 1, senderId: 'u-1', receiverId: 'u-2', content: 'Coucou' },
  VideoUploaded: {
    videoId: 1,
    ownerId: 'u-1',
    title: 'Ma vidéo',
    description: 'À la plage',
    filePath: '/uploads/videos/a.mp4',
    mimeType: 'video/mp4',
    sizeBytes: 10,
  },
  VideoReported: { reportId: 1, videoId: 2, reporterId: 'u-1', reason: 'Spam' },
  DecisionAppealed: {
    decisionId: 'video-2-1',
    subjectId: 'u-1',
    videoId: 2,
    decisionNo: 1,
    text: 'Je conteste',
    at: '2026-01-01T00:00:00.000Z',
  },
};

describe('personal fields of the events', () => {
  it('names an owner field and personal fields that every listed type has', () => {
    for (const [type, spec] of Object.entries(PERSONAL_FIELDS)) {
      expect(eventSchemas[type], type).toBeDefined();
      const sample = samples[type];
      expect(sample, `sample of ${type}`).toBeDefined();
      expect(eventSchemas[type]!.safeParse(sample).success, type).toBe(true);
      expect(typeof sample![spec.owner], `${type}.${spec.owner}`).toBe('string');
      for (const field of Object.keys(spec.fields)) expect(typeof sample![field], `${type}.${field}`).toBe('string');
    }
  });

  it('an event whose personal fields are erased is still valid against its schema (projectors and deciders run on it)', () => {
    for (const [type, spec] of Object.entries(PERSONAL_FIELDS)) {
      const erased = { ...samples[type] };
      for (const [field, as] of Object.entries(spec.fields)) erased[field] = erasedValue(as, 'u-1');
      const parsed = eventSchemas[type]!.safeParse(erased);
      expect(parsed.success, `${type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('erased emails and pseudos differ from one member to another (the users read model keeps them unique)', () => {
    expect(erasedValue('email', 'u-1')).not.toBe(erasedValue('email', 'u-2'));
    expect(erasedValue('pseudo', 'u-1')).not.toBe(erasedValue('pseudo', 'u-2'));
    expect(erasedValue('email', 'u-1')).not.toContain('lea');
  });

  it('finds the owner of an event, none for a type without personal data', () => {
    expect(personalDataOwner('CommentPosted', samples.CommentPosted)).toBe('u-1');
    expect(personalDataOwner('MessageSent', samples.MessageSent)).toBe('u-1');
    expect(personalDataOwner('VideoLiked', { videoId: 1, userId: 'u-1', ownerId: 'u-2' })).toBeUndefined();
  });
});

describe('streams named by a personal value', () => {
  it('are the uniqueness claims of an email, a pseudo and its skeleton, nothing else', async () => {
    const { reservationStream } = await import('../identity/rules');
    expect(personalStreamKind(reservationStream('email', 'Lea@Example.com'))).toBe('email');
    expect(personalStreamKind(reservationStream('pseudo', 'Lea'))).toBe('pseudo');
    expect(personalStreamKind(reservationStream('pseudoSkeleton', 'Lea'))).toBe('pseudoskeleton');
    for (const id of ['user-u-1', 'comment-7', 'purchase-request-u-1-abc', 'data-export-u-1', 'pseudonym', 'email'])
      expect(personalStreamKind(id), id).toBeUndefined();
  });
});
