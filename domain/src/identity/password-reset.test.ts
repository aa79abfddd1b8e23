import { describe, expect, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { userDecider } from './user-decider';
import type { UserEvent } from './events';
import { RESET_MESSAGES, resetLinkLifetime } from './password-reset';

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', email: 'a@b.fr', pseudo: 'Alice', passwordHash: 'h', bio: 'bio', profilePicture: 'p.png' },
};
const T0 = new Date('2026-03-01T10:00:00.000Z');
const inOneHour = new Date(T0.getTime() + 3600_000).toISOString();
const issued = (tokenHash = 'hash-a', issuedBy: 'member' | 'admin' = 'member'): UserEvent => ({
  type: 'PasswordResetIssued',
  data: { userId: 'u1', tokenHash, expiresAt: inOneHour, issuedBy },
});
const reset = (tokenHash = 'hash-a', at = new Date(T0.getTime() + 60_000)) => ({
  type: 'ResetPassword' as const,
  userId: 'u1',
  tokenHash,
  passwordHash: 'h2',
  now: at,
});
const used = (tokenHash = 'hash-a'): UserEvent[] => [
  { type: 'PasswordResetUsed', data: { userId: 'u1', tokenHash } },
  { type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'h2' } },
];

describe('password reset links (user decider)', () => {
  it("issues a link for a registered member, keeping only its secret's hash", () => {
    given(userDecider, [registered])
      .when({ type: 'IssuePasswordReset', userId: 'u1', tokenHash: 'hash-a', expiresAt: inOneHour, issuedBy: 'member' })
      .then([issued()]);
    given(userDecider, [registered])
      .when({ type: 'IssuePasswordReset', userId: 'u1', tokenHash: 'hash-b', expiresAt: inOneHour, issuedBy: 'admin' })
      .then([issued('hash-b', 'admin')]);
  });
  it('issues no link for an unknown member', () => {
    given(userDecider)
      .when({ type: 'IssuePasswordReset', userId: 'u1', tokenHash: 'x', expiresAt: inOneHour, issuedBy: 'member' })
      .thenThrows('Utilisateur introuvable.', 'not_found');
  });
  it('a valid link sets the new password, and records that it served, in one decision', () => {
    given(userDecider, [registered, issued()]).when(reset()).then(used());
    expect(fold(userDecider, [registered, issued(), ...used()])).toMatchObject({ passwordHash: 'h2' });
  });
  it('a link serves once', () => {
    given(userDecider, [registered, issued(), ...used()])
      .when(reset())
      .thenThrows(RESET_MESSAGES.used, 'gone');
  });
  it('a link expires', () => {
    given(userDecider, [registered, issued()])
      .when(reset('hash-a', new Date(T0.getTime() + 3600_001)))
      .thenThrows(RESET_MESSAGES.expired, 'gone');
    // up to its last millisecond it serves
    given(userDecider, [registered, issued()])
      .when(reset('hash-a', new Date(inOneHour)))
      .then(used());
  });
  it('a secret that matches no link of the member is refused', () => {
    given(userDecider, [registered, issued()]).when(reset('hash-z')).thenThrows(RESET_MESSAGES.invalid, 'invalid');
    given(userDecider, [registered]).when(reset()).thenThrows(RESET_MESSAGES.invalid, 'invalid');
  });
  it('a new password closes the other links issued before it', () => {
    given(userDecider, [registered, issued('hash-a'), issued('hash-b'), ...used('hash-b')])
      .when(reset('hash-a'))
      .thenThrows(RESET_MESSAGES.closed, 'gone');
    const changedByOperator: UserEvent = { type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'h3' } };
    given(userDecider, [registered, issued('hash-a'), changedByOperator])
      .when(reset('hash-a'))
      .thenThrows(RESET_MESSAGES.closed, 'gone');
    // a link issued after the change is open
    given(userDecider, [registered, issued('hash-a'), changedByOperator, issued('hash-c')])
      .when(reset('hash-c'))
      .then(used('hash-c'));
  });
  it('says how long a link lasts in words', () => {
    expect(resetLinkLifetime(60)).toBe('1 heure');
    expect(resetLinkLifetime(120)).toBe('2 heures');
    expect(resetLinkLifetime(30)).toBe('30 minutes');
    expect(resetLinkLifetime(0.02)).toBe('1 minute');
  });
});

describe('profile edits (user decider)', () => {
  it('records a new picture or bio', () => {
    given(userDecider, [registered])
      .when({ type: 'UpdateProfile', userId: 'u1', bio: 'Nouvelle bio', profilePicture: 'p.png' })
      .then([{ type: 'ProfileUpdated', data: { userId: 'u1', bio: 'Nouvelle bio', profilePicture: 'p.png' } }]);
    given(userDecider, [registered])
      .when({ type: 'UpdateProfile', userId: 'u1', bio: 'bio', profilePicture: 'q.png' })
      .then([{ type: 'ProfileUpdated', data: { userId: 'u1', bio: 'bio', profilePicture: 'q.png' } }]);
  });
  it('saving what is already there appends nothing', () => {
    const updated: UserEvent = {
      type: 'ProfileUpdated',
      data: { userId: 'u1', bio: 'Nouvelle bio', profilePicture: 'q.png' },
    };
    given(userDecider, [registered, updated])
      .when({ type: 'UpdateProfile', userId: 'u1', bio: 'Nouvelle bio', profilePicture: 'q.png' })
      .then([]);
  });
  it('an unknown member has no profile to edit', () => {
    given(userDecider)
      .when({ type: 'UpdateProfile', userId: 'u1', bio: 'x', profilePicture: 'p.png' })
      .thenThrows('Utilisateur introuvable.', 'not_found');
  });
});
