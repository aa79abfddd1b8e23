import type { Request } from 'express';
import { NOT_YOURS, normalize } from '@evo/domain';
import type { EventStore } from '@evo/infra';
import type { UserDoc } from '@evo/projections';
import { loadMember, sameEmail, type Member } from '../identity/members';
import { HttpError } from './errors';
import { currentUserId } from './session';

/**
 * Who is acting, and on whose data, for the routes: the session member (from the read models for
 * reads, from their stream for commands), a body email claiming who acts, a path email naming whose
 * data is read, with their answers named once. Commands that check a claimed email themselves
 * (comments, messages, coins) use `identity/members.ts`, the command side of the same question.
 */
export const ACTOR_MESSAGES = {
  /** a session whose member is not (or no longer) known */
  sessionExpired: 'Session expirée, reconnecte-toi.',
  userNotFound: 'Utilisateur introuvable.',
  /** the request names someone else as who acts (see NOT_YOURS) */
  actionForbidden: NOT_YOURS.action,
  /** the request reads another member's data (see NOT_YOURS) */
  accessDenied: NOT_YOURS.access,
} as const;
const M = ACTOR_MESSAGES;

/** What the actor checks read of the users read model. */
export interface UserLookup {
  userById(id: string): Promise<UserDoc | null | undefined>;
  userByEmail(email: string): Promise<UserDoc | null | undefined>;
}

/** A member the read models found (by email, pseudo…): 404 'Utilisateur introuvable.' when none. */
export function foundUser<U>(user: U | null | undefined): U {
  if (!user) throw new HttpError(404, M.userNotFound);
  return user;
}

/** The session member as the read models know them: 401 'Session expirée…' when they do not. */
export async function sessionUser(req: Request, users: Pick<UserLookup, 'userById'>): Promise<UserDoc> {
  const me = await users.userById(currentUserId(req));
  if (!me) throw new HttpError(401, M.sessionExpired);
  return me;
}

/** A body email saying who acts must be the session member's (compared case-insensitively): 403. */
export function assertActor(claimed: string | undefined, sessionEmail: string): void {
  if (claimed !== undefined && normalize(claimed) !== normalize(sessionEmail))
    throw new HttpError(403, M.actionForbidden);
}

/**
 * The session member from their stream, for a command: 401 'Session expirée…' when it names no
 * member, 403 when `claimed` (a body email saying who acts) is someone else's.
 */
export async function actingMember(req: Request, events: EventStore, claimed?: string): Promise<Member> {
  const me = await loadMember(events, currentUserId(req));
  if (!me) throw new HttpError(401, M.sessionExpired);
  assertActor(claimed, me.email);
  return me;
}

/**
 * The member a path email names, whose data the session member reads: themselves, or anyone for an
 * administrator (`is_admin` in the read model). 401 when the session member is unknown, 403 with
 * `denied` for someone else's, 404 for an unknown member asked by an administrator.
 */
export async function readableMember(
  req: Request,
  users: UserLookup,
  email: string,
  denied: string = M.accessDenied,
): Promise<UserDoc> {
  const me = await sessionUser(req, users);
  if (normalize(email) === me.email_lc) return me;
  if (!me.is_admin) throw new HttpError(403, denied);
  return foundUser(await users.userByEmail(email));
}

/**
 * The session member, who must be the one `email` names (no administrator reads for them: their
 * conversations, their notifications): 403 with `denied` otherwise.
 */
export async function ownerNamed(req: Request, users: Pick<UserLookup, 'userById'>, email: unknown, denied: string) {
  const me = await users.userById(currentUserId(req));
  if (typeof email !== 'string' || !me || !sameEmail(email, me.email)) throw new HttpError(403, denied);
  return me;
}
