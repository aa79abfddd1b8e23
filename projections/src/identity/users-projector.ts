import { ADMIN_ROLE, MEMBER_ROLE, normalize } from '@evo/domain';
import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce, insertOnce } from '../runtime/write-once';
import { MEMBER_GONE_EVENTS } from '../runtime/member-gone';

/** Socket.IO room of the administrators (report and rebuild pushes). */
export const ADMINS_ROOM = 'admins';

export const USERS = 'users';
/**
 * One document per deleted account: when, and whether its erasure is done (no personal data: the
 * id only). A start finishes the erasures not done (`deletionsNotErased`).
 */
export const ACCOUNT_DELETIONS = 'account_deletions';

export interface AccountDeletionDoc extends Doc {
  _id: string;
  deleted_at: string;
  erased_at: string | null;
}

/** A member as the screens show them (the product entities: pseudo, email, bio, profile_picture). */
export interface UserDoc extends Doc {
  _id: string;
  id: string;
  email: string;
  email_lc: string;
  pseudo: string;
  pseudo_lc: string;
  bio: string;
  profile_picture: string;
  role: string;
  is_admin: boolean;
  created_at: string;
  last_login_at: string | null;
  login_count: number;
}

export const usersProjector: Projector = {
  name: 'users',
  collections: [USERS, ACCOUNT_DELETIONS],
  eventTypes: [
    'UserRegistered',
    'UserLoggedIn',
    'AdminRoleGranted',
    'AdminRoleRevoked',
    'ProfileUpdated',
    ...MEMBER_GONE_EVENTS,
  ],
  indexes: {
    [USERS]: [
      { key: { email_lc: 1 }, unique: true },
      { key: { pseudo_lc: 1 }, unique: true },
      { key: { created_at: -1 } },
    ],
    [ACCOUNT_DELETIONS]: [{ key: { erased_at: 1 } }],
  },
  async project(event, store, ctx) {
    const users = store.collection<UserDoc>(USERS);
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        await applyOnce(
          users,
          d.userId,
          event.position,
          {
            $set: {
              id: d.userId,
              email: d.email,
              email_lc: normalize(d.email),
              pseudo: d.pseudo,
              pseudo_lc: normalize(d.pseudo),
              bio: d.bio,
              profile_picture: d.profilePicture,
              role: MEMBER_ROLE,
              is_admin: false,
              created_at: event.metadata.at,
              last_login_at: null,
              login_count: 0,
            },
          },
          { upsert: true },
        );
        return;
      }
      case 'ProfileUpdated':
        await applyOnce(users, event.data.userId, event.position, {
          $set: { bio: event.data.bio, profile_picture: event.data.profilePicture },
        });
        return;
      case 'AccountDeleted': {
        await users.deleteOne({ _id: event.data.userId });
        await insertOnce(store.collection<AccountDeletionDoc>(ACCOUNT_DELETIONS), {
          _id: event.data.userId,
          deleted_at: event.metadata.at,
          erased_at: null,
        });
        return;
      }
      case 'MemberErased':
        await users.deleteOne({ _id: event.data.userId });
        await applyOnce(store.collection<AccountDeletionDoc>(ACCOUNT_DELETIONS), event.data.userId, event.position, {
          $set: { erased_at: event.metadata.at },
        });
        return;
      case 'UserLoggedIn':
        await applyOnce(users, event.data.userId, event.position, {
          $set: { last_login_at: event.metadata.at },
          $inc: { login_count: 1 },
        });
        return;
      case 'AdminRoleGranted':
      case 'AdminRoleRevoked': {
        const admin = event.type === 'AdminRoleGranted';
        await applyOnce(users, event.data.userId, event.position, {
          $set: { role: admin ? ADMIN_ROLE : MEMBER_ROLE, is_admin: admin },
        });
        // the member's open sockets join (or leave) the administrators' room at once
        ctx.rooms(`user:${event.data.userId}`, ADMINS_ROOM, admin ? 'join' : 'leave');
        ctx.push(`user:${event.data.userId}`, 'session:changed', { role: admin ? ADMIN_ROLE : MEMBER_ROLE });
        return;
      }
      default:
        return;
    }
  },
};
