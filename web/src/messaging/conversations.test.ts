import { describe, expect, it } from 'vitest';
import { groupConversations, isBetween, mergeMessages } from './conversations';
import { testMessage } from './testing';

const msg = testMessage;

describe('groupConversations', () => {
  it('groups by the other party, most recent conversation first, with the last message', () => {
    const list = [
      msg(1, 'bob', 'alice', '2025-03-01T10:00:00Z'),
      msg(2, 'alice', 'carol', '2025-03-01T11:00:00Z'),
      msg(3, 'alice', 'bob', '2025-03-01T12:00:00Z', 'réponse'),
    ];
    const groups = groupConversations(list, 'ALICE@x.fr ');
    expect(groups.map((g) => g.otherPseudo)).toEqual(['bob', 'carol']);
    expect(groups[0]).toMatchObject({ count: 2, lastIsMine: true, otherEmail: 'bob@x.fr' });
    expect(groups[0].last.content).toBe('réponse');
  });

  it('ignores messages that do not involve me', () => {
    expect(groupConversations([msg(1, 'bob', 'carol', '2025-03-01T10:00:00Z')], 'alice@x.fr')).toEqual([]);
  });
});

describe('mergeMessages / isBetween', () => {
  it('adds without duplicates, oldest first', () => {
    const a = msg(1, 'bob', 'alice', '2025-03-01T10:00:00Z');
    const b = msg(2, 'alice', 'bob', '2025-03-01T09:00:00Z');
    expect(mergeMessages([a], [b, a]).map((m) => m.id)).toEqual([2, 1]);
  });

  it('matches the other party by email or pseudo', () => {
    const m = msg(1, 'bob', 'alice', '2025-03-01T10:00:00Z');
    expect(isBetween(m, 'alice@x.fr', { pseudo: 'bob' })).toBe(true);
    expect(isBetween(m, 'alice@x.fr', { email: 'bob@x.fr' })).toBe(true);
    expect(isBetween(m, 'alice@x.fr', { pseudo: 'carol' })).toBe(false);
  });
});
