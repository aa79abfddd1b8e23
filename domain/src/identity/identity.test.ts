import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { userDecider } from './user-decider';
import { reservationDecider, ABANDONED_AFTER_MS } from './reservation-decider';
import { MESSAGES, RegisterBody, LoginBody, normalize, reservationStream } from './rules';
import type { UserEvent } from './events';

const registered: UserEvent = {
  type: 'UserRegistered',
  data: { userId: 'u1', email: 'a@b.fr', pseudo: 'Alice', passwordHash: 'h', bio: 'bio', profilePicture: 'p.png' },
};

describe('user decider', () => {
  it('registers a new user', () => {
    const { data } = registered;
    given(userDecider)
      .when({ type: 'RegisterUser', ...data })
      .then([registered]);
  });
  it('refuses to register twice', () => {
    given(userDecider, [registered])
      .when({ type: 'RegisterUser', ...registered.data })
      .thenThrows(MESSAGES.alreadyRegistered, 'conflict');
  });
  it('records a login of a registered user only', () => {
    given(userDecider, [registered])
      .when({ type: 'RecordLogin', userId: 'u1' })
      .then([{ type: 'UserLoggedIn', data: { userId: 'u1' } }]);
    given(userDecider).when({ type: 'RecordLogin', userId: 'u1' }).thenThrows(MESSAGES.unknownUser, 'not_found');
  });
  it('grants the admin role once, then answers without a new event', () => {
    given(userDecider, [registered])
      .when({ type: 'GrantAdmin', userId: 'u1' })
      .then([{ type: 'AdminRoleGranted', data: { userId: 'u1' } }]);
    given(userDecider, [registered, { type: 'AdminRoleGranted', data: { userId: 'u1' } }])
      .when({ type: 'GrantAdmin', userId: 'u1' })
      .then([]);
  });
  it("changes a registered member's password, and a login then checks the new hash", () => {
    const changed: UserEvent = { type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'h2' } };
    given(userDecider, [registered]).when({ type: 'ChangePassword', userId: 'u1', passwordHash: 'h2' }).then([changed]);
    expect(fold(userDecider, [registered, changed])).toMatchObject({ passwordHash: 'h2' });
    given(userDecider)
      .when({ type: 'ChangePassword', userId: 'u1', passwordHash: 'h2' })
      .thenThrows(MESSAGES.unknownUser, 'not_found');
  });
  it("records an administrator's unlock of a member's logins, for registered members only", () => {
    given(userDecider, [registered])
      .when({ type: 'ClearLoginLock', userId: 'u1', failures: 7 })
      .then([{ type: 'LoginLockCleared', data: { userId: 'u1', failures: 7 } }]);
    given(userDecider)
      .when({ type: 'ClearLoginLock', userId: 'u1', failures: 7 })
      .thenThrows(MESSAGES.unknownUser, 'not_found');
  });
  it('revokes only an existing admin role', () => {
    given(userDecider, [registered])
      .when({ type: 'RevokeAdmin', userId: 'u1' })
      .thenThrows(MESSAGES.notAdmin, 'conflict');
    given(userDecider, [registered, { type: 'AdminRoleGranted', data: { userId: 'u1' } }])
      .when({ type: 'RevokeAdmin', userId: 'u1' })
      .then([{ type: 'AdminRoleRevoked', data: { userId: 'u1' } }]);
  });
});

describe('reservation decider', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const reserve = (userId: string, at = now, ownerRegistered = true) =>
    ({ type: 'Reserve', kind: 'pseudo', value: 'alice', userId, now: at, ownerRegistered }) as const;
  const reservedBy = (userId: string, at = now) =>
    ({
      type: 'ValueReserved',
      data: { kind: 'pseudo', value: 'alice', userId, reservedAt: at.toISOString() },
    }) as const;

  it('reserves a free value', () => {
    given(reservationDecider)
      .when(reserve('u1'))
      .then([reservedBy('u1')]);
  });
  it('refuses a value held by another registered user', () => {
    given(reservationDecider, [reservedBy('u1')])
      .when(reserve('u2'))
      .thenThrows(MESSAGES.pseudoTaken, 'conflict');
  });
  it('uses the email message for emails', () => {
    given(reservationDecider, [
      { type: 'ValueReserved', data: { kind: 'email', value: 'a@b.fr', userId: 'u1', reservedAt: now.toISOString() } },
    ])
      .when({ type: 'Reserve', kind: 'email', value: 'a@b.fr', userId: 'u2', now, ownerRegistered: true })
      .thenThrows(MESSAGES.emailTaken, 'conflict');
  });
  it('is idempotent for the owner', () => {
    given(reservationDecider, [reservedBy('u1')])
      .when(reserve('u1'))
      .then([]);
  });
  it('keeps a fresh claim of an unfinished registration', () => {
    const soon = new Date(now.getTime() + 1000);
    given(reservationDecider, [reservedBy('u1')])
      .when(reserve('u2', soon, false))
      .thenThrows(MESSAGES.pseudoTaken);
  });
  it('lets an abandoned claim be taken over', () => {
    const later = new Date(now.getTime() + ABANDONED_AFTER_MS + 1);
    given(reservationDecider, [reservedBy('u1')])
      .when(reserve('u2', later, false))
      .then([reservedBy('u2', later)]);
  });
  it('frees a released value; only the owner releases', () => {
    const released = { type: 'ValueReleased', data: { kind: 'pseudo', value: 'alice', userId: 'u1' } } as const;
    given(reservationDecider, [reservedBy('u1')])
      .when({ type: 'Release', kind: 'pseudo', value: 'alice', userId: 'u1' })
      .then([released]);
    given(reservationDecider, [reservedBy('u1')])
      .when({ type: 'Release', kind: 'pseudo', value: 'alice', userId: 'u2' })
      .then([]);
    given(reservationDecider, [reservedBy('u1'), released])
      .when(reserve('u2'))
      .then([reservedBy('u2')]);
  });
});

describe('identity rules', () => {
  const valid = {
    email: ' Alice@Example.fr ',
    pseudo: 'alice_01',
    password: 'motdepasse',
    bio: 'Salut',
    video_title: 'Ma vidéo',
  };
  it('accepts a valid registration and trims', () => {
    const r = RegisterBody.parse(valid);
    expect(r.email).toBe('Alice@Example.fr');
  });
  it.each([
    [{ email: '' }, MESSAGES.emailRequired],
    [{ email: 'pas-un-email' }, MESSAGES.emailInvalid],
    [{ pseudo: 'a' }, MESSAGES.pseudoInvalid],
    [{ pseudo: 'a b c' }, MESSAGES.pseudoInvalid],
    [{ password: 'court' }, MESSAGES.passwordTooShort],
    [{ bio: '   ' }, MESSAGES.bioRequired],
    [{ bio: 'x'.repeat(501) }, MESSAGES.bioTooLong],
    [{ video_title: '' }, MESSAGES.titleRequired],
    [{ email: 42 }, MESSAGES.emailRequired],
    [{ pseudo: undefined }, MESSAGES.pseudoRequired],
  ])('refuses %o with a French message', (patch, message) => {
    const r = RegisterBody.safeParse({ ...valid, ...patch });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe(message);
  });
  it('requires login fields', () => {
    expect(LoginBody.safeParse({ email: 'a@b.fr' }).error?.issues[0].message).toBe(MESSAGES.passwordRequired);
  });
  it('normalises case for uniqueness', () => {
    expect(normalize(' ALICE ')).toBe('alice');
    expect(reservationStream('email', 'A@B.FR')).toBe('email-a@b.fr');
  });
});
