import type { Decider } from '../shared/decider';
import { DomainError, conflict, notFound } from '../shared/errors';
import type { UserEvent } from './events';
import { ADMIN_ROLE, MEMBER_ROLE, MESSAGES } from './rules';

export type UserCommand =
  | {
      type: 'RegisterUser';
      userId: string;
      email: string;
      pseudo: string;
      passwordHash: string;
      bio: string;
      profilePicture: string;
    }
  | { type: 'RecordLogin'; userId: string }
  /** a new password, already hashed (the hash is salted: the handler checks that it differs) */
  | { type: 'ChangePassword'; userId: string; passwordHash: string }
  /** an administrator cleared the member's failed logins (`failures`: how many there were) */
  | { type: 'ClearLoginLock'; userId: string; failures: number }
  | { type: 'GrantAdmin'; userId: string }
  | {
      type: 'RevokeAdmin';
      userId: string;
      /**
       * administrators other than this member, as far as the handler verified them on their own
       * streams (undefined: not checked, e.g. a command-line tool): 0 refuses the revocation
       */
      otherAdmins?: number;
    };

export type UserState =
  | { status: 'none' }
  | {
      status: 'registered';
      userId: string;
      email: string;
      pseudo: string;
      passwordHash: string;
      profilePicture: string;
      role: typeof ADMIN_ROLE | typeof MEMBER_ROLE;
    };

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return {
          status: 'registered',
          userId: event.data.userId,
          email: event.data.email,
          pseudo: event.data.pseudo,
          passwordHash: event.data.passwordHash,
          profilePicture: event.data.profilePicture,
          role: MEMBER_ROLE,
        };
      case 'AdminRoleGranted':
        return state.status === 'registered' ? { ...state, role: ADMIN_ROLE } : state;
      case 'AdminRoleRevoked':
        return state.status === 'registered' ? { ...state, role: MEMBER_ROLE } : state;
      case 'PasswordChanged':
        return state.status === 'registered' ? { ...state, passwordHash: event.data.passwordHash } : state;
      case 'UserLoggedIn':
      case 'LoginLockCleared':
        return state;
    }
  },

  decide(command, state) {
    if (command.type === 'RegisterUser') {
      if (state.status !== 'none') throw conflict(MESSAGES.alreadyRegistered);
      const { type: _t, ...data } = command;
      return [{ type: 'UserRegistered', data }];
    }
    if (state.status !== 'registered') throw notFound(MESSAGES.unknownUser);
    switch (command.type) {
      case 'RecordLogin':
        return [{ type: 'UserLoggedIn', data: { userId: state.userId } }];
      case 'ChangePassword':
        return [{ type: 'PasswordChanged', data: { userId: state.userId, passwordHash: command.passwordHash } }];
      case 'ClearLoginLock':
        return [{ type: 'LoginLockCleared', data: { userId: state.userId, failures: command.failures } }];
      case 'GrantAdmin':
        // granting twice changes nothing: answer without an event so the call is idempotent
        return state.role === ADMIN_ROLE ? [] : [{ type: 'AdminRoleGranted', data: { userId: state.userId } }];
      case 'RevokeAdmin':
        if (state.role !== ADMIN_ROLE) throw new DomainError(MESSAGES.notAdmin, 'conflict');
        // the platform always keeps an administrator
        if (command.otherAdmins === 0) throw conflict(MESSAGES.lastAdmin);
        return [{ type: 'AdminRoleRevoked', data: { userId: state.userId } }];
    }
  },
};
