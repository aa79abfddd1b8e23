import { Router } from 'express';
import type { AdminRightAnswer } from '@evo/contracts';
import type { UserState } from '@evo/domain';
import { adminQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { currentUserId } from '../http/session';
import { answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { requireAdmin } from './require-admin';
import { adminRoleCommands } from './commands';
import { ADMIN_ROUTE_MESSAGES as M, EmailBody, UsersQuery } from './schemas';
import { bodyOf, parseInput } from '../http/request';

const userView = (s: UserState): AdminRightAnswer['user'] =>
  s.status === 'registered'
    ? { id: s.userId, email: s.email, pseudo: s.pseudo, role: s.role, is_admin: s.role === 'admin' }
    : null;

/** Members (search, pages) and the administrator role (AdminRoleGranted / AdminRoleRevoked). */
export function adminUsersRouter(deps: AppDeps): Router {
  const admin = requireAdmin(deps);
  const queries = adminQueries(deps.read);
  const roles = adminRoleCommands(deps.events);
  const r = Router();

  /** ?q= (in emails and pseudos, any case), ?page= (from 1), ?limit= (20, at most 100) */
  r.get(
    '/admin/users',
    ...admin,
    route(async (req, res) => {
      const { q, page, limit } = parseInput(UsersQuery, req.query);
      res.json(await queries.users(q, { page, limit }));
    }),
  );

  r.post(
    '/admin/users/grant',
    ...admin,
    route(async (req, res) => {
      const { email } = parseInput(EmailBody, bodyOf(req));
      const result = await roles.grant(email, contextOf(req));
      await answerWrite(deps.sessions, req, res, result.position);
      res.json({
        message: result.events.length > 0 ? M.granted(email) : M.alreadyAdmin(email),
        user: userView(result.state),
      } satisfies AdminRightAnswer);
    }),
  );

  r.post(
    '/admin/users/revoke',
    ...admin,
    route(async (req, res) => {
      const { email } = parseInput(EmailBody, bodyOf(req));
      const result = await roles.revoke(queries, currentUserId(req), email, contextOf(req));
      await answerWrite(deps.sessions, req, res, result.position);
      res.json({ message: M.revoked(email), user: userView(result.state) } satisfies AdminRightAnswer);
    }),
  );

  return r;
}
