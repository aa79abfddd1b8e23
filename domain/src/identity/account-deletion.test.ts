import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { userDecider } from './user-decider';
import { reservationDecider } from './reservation-decider';
import { ACCOUNT_DELETION_GRACE_MS, DELETION_MESSAGES, DeleteAccountBody } from './account-deletion';
import { MESSAGES } from './rules';
import type { UserEvent } from './events';

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', email: 'a@b.fr', pseudo: 'Alice', passwordHash: 'h', bio: 'bio', profilePicture: 'p.png' },
};
const deleted: UserEvent = { type: 'AccountDeleted', data: { userId: 'u1' } };
const del = { type: 'DeleteAccount', userId: 'u1', passwordMatches: true, withdrawableCoins: 0 } as const;

describe('account deletion (user decider)', () => {
  it('deletes the account of a member who typed their password again, with no personal data in the event', () => {
    given(userDecider, [registered]).when(del).then([deleted]);
  });
  it('refuses a wrong password, in French, and deletes nothing', () => {
    given(userDecider, [registered])
      .when({ ...del, passwordMatches: false })
      .thenThrows(DELETION_MESSAGES.wrongPassword, 'invalid');
  });
  it('refuses while coins may still be withdrawn, naming how many', () => {
    given(userDecider, [registered])
      .when({ ...del, withdrawableCoins: 120 })
      .thenThrows(
        'Tu as encore 120 coins retirables : retire-les depuis ton coffre (Retrait) avant de supprimer ton compte.',
        'conflict',
      );
  });
  it("refuses an administrator's deletion (the platform keeps its administrators)", () => {
    given(userDecider, [registered, { type: 'AdminRoleGranted', data: { userId: 'u1' } }])
      .when(del)
      .thenThrows(DELETION_MESSAGES.adminAccount, 'conflict');
  });
  it('refuses a second deletion, and every other command of a deleted member', () => {
    given(userDecider, [registered, deleted]).when(del).thenThrows(DELETION_MESSAGES.alreadyDeleted, 'conflict');
    given(userDecider, [registered, deleted])
      .when({ type: 'RecordLogin', userId: 'u1' })
      .thenThrows(MESSAGES.unknownUser, 'not_found');
    given(userDecider, [registered, deleted])
      .when({ type: 'UpdateProfile', userId: 'u1', bio: 'x', profilePicture: 'p.png' })
      .thenThrows(MESSAGES.unknownUser, 'not_found');
  });
  it('forgets everything but the id once deleted', () => {
    expect(fold(userDecider, [registered, deleted])).toEqual({ status: 'deleted', userId: 'u1', erased: false });
  });
  it('records the erasure once, and only of a deleted member', () => {
    given(userDecider, [registered, deleted])
      .when({ type: 'RecordErasure', userId: 'u1', files: 3 })
      .then([{ type: 'MemberErased', data: { userId: 'u1', files: 3 } }]);
    given(userDecider, [registered, deleted, { type: 'MemberErased', data: { userId: 'u1', files: 3 } }])
      .when({ type: 'RecordErasure', userId: 'u1', files: 0 })
      .then([]);
    given(userDecider, [registered])
      .when({ type: 'RecordErasure', userId: 'u1', files: 0 })
      .thenThrows(MESSAGES.unknownUser, 'conflict');
  });
  it('asks for the password in French', () => {
    const r = DeleteAccountBody.safeParse({});
    expect(r.success ? '' : r.error.issues[0].message).toBe(DELETION_MESSAGES.passwordRequired);
  });
});

describe("a deleted member's email and pseudo (reservation decider)", () => {
  const claim = { kind: 'email', value: 'a@b.fr', userId: 'u1', reservedAt: '2026-01-01T00:00:00.000Z' } as const;
  const deletedAt = '2026-02-01T00:00:00.000Z';
  const reserve = (now: Date, ownerDeletedAt: string | null) =>
    ({
      type: 'Reserve',
      kind: 'email',
      value: 'a@b.fr',
      userId: 'u2',
      now,
      ownerRegistered: true,
      ownerDeletedAt,
    }) as const;
  it('stays taken during the grace period', () => {
    given(reservationDecider, [{ type: 'ValueReserved', data: claim }])
      .when(reserve(new Date(Date.parse(deletedAt) + ACCOUNT_DELETION_GRACE_MS - 1000), deletedAt))
      .thenThrows(MESSAGES.emailTaken, 'conflict');
  });
  it('may be taken by someone else once the grace period has passed', () => {
    const now = new Date(Date.parse(deletedAt) + ACCOUNT_DELETION_GRACE_MS);
    given(reservationDecider, [{ type: 'ValueReserved', data: claim }])
      .when(reserve(now, deletedAt))
      .then([
        {
          type: 'ValueReserved',
          data: { kind: 'email', value: 'a@b.fr', userId: 'u2', reservedAt: now.toISOString() },
        },
      ]);
  });
  it('stays taken by a member who did not delete their account, however old the claim', () => {
    given(reservationDecider, [{ type: 'ValueReserved', data: claim }])
      .when(reserve(new Date('2030-01-01'), null))
      .thenThrows(MESSAGES.emailTaken, 'conflict');
  });
});
