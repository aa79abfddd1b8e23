import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import type { DomainErrorKind } from '../shared/errors';
import { conversationDecider, StaleMessageIdError, type ConversationCommand } from './conversation-decider';
import { type ConversationEvent, type MessageSent } from './events';
import { PROFANITY_TERMS, containsProfanity, findProfanity, normalizeForMatch } from './profanity';
import { MESSAGE_LIMITS, MESSAGING_MESSAGES, MessageBody, conversationStream } from './rules';

type SendPatch = Partial<Extract<ConversationCommand, { type: 'SendMessage' }>>;
const send = (messageId: number, patch: SendPatch = {}): ConversationCommand => ({
  type: 'SendMessage',
  messageId,
  content: 'Salut, ça va ?',
  senderId: 'a',
  receiverId: 'b',
  senderFollowsReceiver: true,
  ...patch,
});
const sent = (messageId: number, senderId = 'a', receiverId = 'b', content = 'Salut, ça va ?'): MessageSent => ({
  type: 'MessageSent',
  data: { messageId, senderId, receiverId, content },
});

describe('conversation decider: sending', () => {
  it('sends a message from a follower', () => {
    given(conversationDecider)
      .when(send(1))
      .then([sent(1)]);
  });
  it('trims the text', () => {
    given(conversationDecider)
      .when(send(1, { content: '  Coucou  ' }))
      .then([sent(1, 'a', 'b', 'Coucou')]);
  });
  it(`accepts ${MESSAGE_LIMITS.contentMax} characters, not one more`, () => {
    const max = 'a'.repeat(MESSAGE_LIMITS.contentMax);
    given(conversationDecider)
      .when(send(1, { content: max }))
      .then([sent(1, 'a', 'b', max)]);
    given(conversationDecider)
      .when(send(1, { content: `${max}a` }))
      .thenThrows(MESSAGING_MESSAGES.tooLong, 'invalid');
  });

  // each check alone, then with every later check failing too: the earliest one answers
  it.each<[string, string, DomainErrorKind, SendPatch[]]>([
    [
      '1. refuses an empty or blank message first',
      'Le message ne peut pas être vide.',
      'invalid',
      [{ content: '' }, { content: '   \n', senderId: null, receiverId: null, senderFollowsReceiver: false }],
    ],
    [
      '2. then a missing session',
      'Utilisateur non connecté.',
      'unauthenticated',
      [{ senderId: null }, { senderId: null, receiverId: null, content: 'connard', senderFollowsReceiver: false }],
    ],
    [
      '3. then an unknown receiver',
      'Destinataire introuvable.',
      'not_found',
      [{ receiverId: null }, { receiverId: null, content: 'connard', senderFollowsReceiver: false }],
    ],
    [
      '4. then a forbidden word',
      'Ce message contient un mot inapproprié. Veuillez reformuler.',
      'invalid',
      [{ content: 'Espèce de CONNARD' }, { content: 'sale enculé', senderFollowsReceiver: false }],
    ],
    [
      '5. then a sender who does not follow the receiver',
      'Vous devez suivre cet utilisateur pour lui envoyer un MP.',
      'forbidden',
      [{ senderFollowsReceiver: false }],
    ],
  ])('%s', (_, message, kind, patches) => {
    for (const patch of patches) given(conversationDecider).when(send(1, patch)).thenThrows(message, kind);
  });
  it('keeps message ids increasing within a conversation', () => {
    given(conversationDecider, [sent(5)])
      .when(send(6, { senderId: 'b', receiverId: 'a' }))
      .then([sent(6, 'b', 'a')]);
    expect(() =>
      conversationDecider.decide(send(4), conversationDecider.evolve(conversationDecider.initialState(), sent(5))),
    ).toThrow(StaleMessageIdError);
  });
});

describe('conversation decider: deleting', () => {
  const del = (userId: string, otherId: string): ConversationCommand => ({
    type: 'DeleteConversation',
    userId,
    otherId,
  });
  const deleted = (userId: string, otherId: string, upToMessageId: number): ConversationEvent => ({
    type: 'ConversationDeleted',
    data: { userId, otherId, upToMessageId },
  });
  it('hides the conversation up to its last message, for the requester only', () => {
    given(conversationDecider, [sent(1), sent(3, 'b', 'a')])
      .when(del('a', 'b'))
      .then([deleted('a', 'b', 3)]);
    // the other party may still delete their own copy
    given(conversationDecider, [sent(1), sent(3, 'b', 'a'), deleted('a', 'b', 3)])
      .when(del('b', 'a'))
      .then([deleted('b', 'a', 3)]);
  });
  it('appends nothing when already hidden, and hides later messages again', () => {
    given(conversationDecider, [sent(1), deleted('a', 'b', 1)])
      .when(del('a', 'b'))
      .then([]);
    given(conversationDecider, [sent(1), deleted('a', 'b', 1), sent(2, 'b', 'a')])
      .when(del('a', 'b'))
      .then([deleted('a', 'b', 2)]);
  });
  it('refuses an empty conversation', () => {
    given(conversationDecider).when(del('a', 'b')).thenThrows(MESSAGING_MESSAGES.conversationNotFound, 'not_found');
  });
});

describe('profanity list', () => {
  it('holds about seventy French terms', () => {
    expect(PROFANITY_TERMS.length).toBeGreaterThanOrEqual(65);
    expect(PROFANITY_TERMS.length).toBeLessThanOrEqual(80);
    expect(new Set(PROFANITY_TERMS.map((t) => normalizeForMatch(t.term))).size).toBe(PROFANITY_TERMS.length);
  });
  it.each([
    'connard',
    'CONNARD',
    'Connasse !',
    'espèce de salopE',
    'tu es un enculé',
    'tu es un ENCULE',
    'encule',
    'Bâtard',
    'batard',
    'BÂTARD',
    'tête de nœud',
    'TETE DE NOEUD',
    'ferme ta gueule',
    'ta-gueule',
    'sale-arabe',
    'espèce de pédé',
    'gros PD',
    'quel con.',
    'des cons',
    "c'est une pute",
    'nègre',
    'NEGRE',
    'fils de pute',
    'connards',
  ])('finds %o', (text) => {
    expect(containsProfanity(text)).toBe(true);
  });
  it.each([
    'Bonjour, ça va ?',
    'la dispute',
    'une bonne réputation',
    'marche pédestre',
    'mon contact',
    'la constitution',
    'la Mongolie',
    'les ordures ménagères',
    'un negroni',
    'idiotisme',
    'computer',
    'la salle de bain',
    'Sale temps aujourd’hui',
    '',
  ])('lets %o through', (text) => {
    expect(findProfanity(text)).toBeNull();
  });
  it('normalises case, accents, ligatures and punctuation', () => {
    expect(normalizeForMatch('  Tête-de-NŒUD !! ')).toBe('tete de noeud');
    expect(normalizeForMatch('ÉÀÇÏ')).toBe('eaci');
  });
});

describe('messaging rules', () => {
  it('names the streams', () => {
    expect(conversationStream('b', 'a')).toBe('conversation-a-b');
    expect(conversationStream('a', 'b')).toBe('conversation-a-b');
  });
  it('reads any non-text content as empty', () => {
    expect(MessageBody.parse({ content: 42 }).content).toBe('');
    expect(MessageBody.parse({}).content).toBe('');
  });
});
