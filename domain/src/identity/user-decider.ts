import type { Decider } from '../shared/decider';
import { DomainError, conflict, gone, invalid, notFound } from '../shared/errors';
import type { UserEvent } from './events';
import { ADMIN_ROLE, MEMBER_ROLE, MESSAGES } from './rules';
import { RESET_LINKS_KEPT, RESET_MESSAGES, type ResetLink } from './password-reset';
import { DELETION_MESSAGES } from './account-deletion';

/** What a member registers with, as the command gives it and the registered state keeps it. */
interface Registration {
  userId: string;
  email: string;
  pseudo: string;
  passwordHash: string;
  bio: string;
  profilePicture: string;
}

export type UserCommand =
  | ({ type: 'RegisterUser' } & Registration)
  | { type: 'RecordLogin'; userId: string }
  /** a new password, already hashed (the hash is salted: the handler checks that it differs) */
  | { type: 'ChangePassword'; userId: string; passwordHash: string }
  /** an administrator cleared the member's failed logins (`failures`: how many there were) */
  | { type: 'ClearLoginLock'; userId: string; failures: number }
  /** a reset link (its secret's hash) for the member, usable until `expiresAt` (ISO) */
  | { type: 'IssuePasswordReset'; userId: string; tokenHash: string; expiresAt: string; issuedBy: 'member' | 'admin' }
  /** a new password (hashed) through the link whose secret hashes to `tokenHash`, at `now` */
  | { type: 'ResetPassword'; userId: string; tokenHash: string; passwordHash: string; now: Date }
  /** the member's picture (a stored file's name) and bio; what did not change appends nothing */
  | { type: 'UpdateProfile'; userId: string; bio: string; profilePicture: string }
  | { type: 'GrantAdmin'; userId: string }
  /**
   * the member deletes their account: `passwordMatches` is the handler's check of the password typed
   * again, `withdrawableCoins` their wallet's earnings (which must be withdrawn first)
   */
  | { type: 'DeleteAccount'; userId: string; passwordMatches: boolean; withdrawableCoins: number }
  /** the erasure process finished (files removed: `files`, key destroyed) */
  | { type: 'RecordErasure'; userId: string; files: number }
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
  | ({
      status: 'registered';
      role: typeof ADMIN_ROLE | typeof MEMBER_ROLE;
      /** the reset links issued lately, newest last */
      resetLinks: ResetLink[];
    } & Registration)
  /** deleted: nothing but the id is known any more; `erased` once the erasure process is done */
  | { status: 'deleted'; userId: string; erased: boolean };

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
          bio: event.data.bio,
          profilePicture: event.data.profilePicture,
          role: MEMBER_ROLE,
          resetLinks: [],
        };
      case 'AdminRoleGranted':
        return state.status === 'registered' ? { ...state, role: ADMIN_ROLE } : state;
      case 'AdminRoleRevoked':
        return state.status === 'registered' ? { ...state, role: MEMBER_ROLE } : state;
      case 'PasswordChanged':
        if (state.status !== 'registered') return state;
        return {
          ...state,
          passwordHash: event.data.passwordHash,
          // a new password ends the links issued before it
          resetLinks: state.resetLinks.map((l) => (l.status === 'open' ? { ...l, status: 'closed' } : l)),
        };
      case 'PasswordResetIssued': {
        if (state.status !== 'registered') return state;
        const { tokenHash, expiresAt } = event.data;
        const link: ResetLink = { tokenHash, expiresAt, status: 'open' };
        return { ...state, resetLinks: [...state.resetLinks, link].slice(-RESET_LINKS_KEPT) };
      }
      case 'PasswordResetUsed':
        if (state.status !== 'registered') return state;
        return {
          ...state,
          resetLinks: state.resetLinks.map((l) =>
            l.tokenHash === event.data.tokenHash ? { ...l, status: 'used' } : l,
          ),
        };
      case 'ProfileUpdated':
        return state.status === 'registered'
          ? { ...state, bio: event.data.bio, profilePicture: event.data.profilePicture }
          : state;
      case 'AccountDeleted':
        return { status: 'deleted', userId: event.data.userId, erased: false };
      case 'MemberErased':
        return { status: 'deleted', userId: event.data.userId, erased: true };
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
    if (command.type === 'RecordErasure') {
      if (state.status !== 'deleted') throw conflict(MESSAGES.unknownUser);
      return state.erased ? [] : [{ type: 'MemberErased', data: { userId: state.userId, files: command.files } }];
    }
    if (state.status === 'deleted' && command.type === 'DeleteAccount')
      throw conflict(DELETION_MESSAGES.alreadyDeleted);
    if (state.status !== 'registered') throw notFound(MESSAGES.unknownUser);
    switch (command.type) {
      case 'DeleteAccount':
        if (!command.passwordMatches) throw invalid(DELETION_MESSAGES.wrongPassword);
        // the platform keeps its administrators (the last one could otherwise leave it with none)
        if (state.role === ADMIN_ROLE) throw conflict(DELETION_MESSAGES.adminAccount);
        // the ledger rule: coins that may leave the platform are withdrawn by their owner, never forfeited
        if (command.withdrawableCoins > 0) throw conflict(DELETION_MESSAGES.withdrawFirst(command.withdrawableCoins));
        return [{ type: 'AccountDeleted', data: { userId: state.userId } }];
      case 'RecordLogin':
        return [{ type: 'UserLoggedIn', data: { userId: state.userId } }];
      case 'ChangePassword':
        return [{ type: 'PasswordChanged', data: { userId: state.userId, passwordHash: command.passwordHash } }];
      case 'IssuePasswordReset': {
        const { tokenHash, expiresAt, issuedBy } = command;
        return [{ type: 'PasswordResetIssued', data: { userId: state.userId, tokenHash, expiresAt, issuedBy } }];
      }
      case 'ResetPassword': {
        const link = state.resetLinks.find((l) => l.tokenHash === command.tokenHash);
        if (!link) throw invalid(RESET_MESSAGES.invalid);
        if (link.status === 'used') throw gone(RESET_MESSAGES.used);
        if (link.status === 'closed') throw gone(RESET_MESSAGES.closed);
        if (command.now.getTime() > Date.parse(link.expiresAt)) throw gone(RESET_MESSAGES.expired);
        return [
          { type: 'PasswordResetUsed', data: { userId: state.userId, tokenHash: link.tokenHash } },
          { type: 'PasswordChanged', data: { userId: state.userId, passwordHash: command.passwordHash } },
        ];
      }
      case 'UpdateProfile': {
        const { bio, profilePicture } = command;
        if (bio === state.bio && profilePicture === state.profilePicture) return [];
        return [{ type: 'ProfileUpdated', data: { userId: state.userId, bio, profilePicture } }];
      }
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
