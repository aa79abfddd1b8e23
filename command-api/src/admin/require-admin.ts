import type { Request, RequestHandler } from 'express';
import { identityQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError } from '../http/errors';
import { AUTH_MESSAGES, currentUserId, requireAuth } from '../http/session';
import { isAdminByStream } from '../identity/members';

const CHECKED = 'adminChecked';
const isRead = (req: Request) => req.method === 'GET' || req.method === 'HEAD';

/**
 * Every administrator call: 401 'Tu dois être connecté(e).' without a session, 403 'Accès réservé
 * aux administrateurs.' for members. Reads take the role from the users read model (`is_admin`);
 * commands from the member's own stream (the user decider's state), never from a read model. A
 * request checked once (the `/api/admin` prefix guard) is not checked again by its route.
 */
export function requireAdmin(deps: Pick<AppDeps, 'events' | 'read'>): RequestHandler[] {
  const users = identityQueries(deps.read);
  const check: RequestHandler = (req, res, next) => {
    if (res.locals[CHECKED] === true) return next();
    const userId = currentUserId(req);
    const decided = isRead(req)
      ? users.userById(userId).then((u) => u?.is_admin === true)
      : isAdminByStream(deps.events, userId);
    decided
      .then((ok) => {
        if (!ok) return next(new HttpError(403, AUTH_MESSAGES.adminOnly));
        res.locals[CHECKED] = true;
        next();
      })
      .catch(next);
  };
  return [requireAuth, check];
}
