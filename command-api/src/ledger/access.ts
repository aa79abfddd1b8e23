import type { Request } from 'express';
import { identityQueries, type UserDoc } from '@evo/projections';
import type { ReadStore } from '@evo/infra';
import { HttpError } from '../http/errors';
import { AUTH_MESSAGES, currentUserId } from '../http/session';

export const ACCESS_MESSAGES = {
  userNotFound: 'Utilisateur introuvable.',
} as const;

/**
 * Who may read what: a member reads their own coins and gifts; an administrator reads anyone's.
 * The administrator role comes from the users read model (`is_admin`).
 */
export function access(read: ReadStore) {
  const users = identityQueries(read);
  const isAdmin = async (userId: string) => (await users.userById(userId))?.is_admin === true;

  /** The member an `:email` path names, if the session may read them: 403 'Accès refusé.' otherwise. */
  async function subject(req: Request, email: string): Promise<UserDoc> {
    const me = currentUserId(req);
    const target = await users.userByEmail(email);
    if (target?._id === me) return target;
    if (!(await isAdmin(me))) throw new HttpError(403, AUTH_MESSAGES.forbidden);
    if (!target) throw new HttpError(404, ACCESS_MESSAGES.userNotFound);
    return target;
  }

  return { isAdmin, subject };
}
