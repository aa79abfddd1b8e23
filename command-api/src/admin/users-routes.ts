import { Router, type Request, type Response } from 'express';
import type { AdminRightAnswer, AdminUsersAnswer, LoginUnlockedAnswer, PasswordResetLinkAnswer } from '@evo/contracts';
import { RESET_MESSAGES, normalize, userDecider, userStream, type UserState } from '@evo/domain';
import { handleCommand } from '@evo/infra';
import { LoginThrottle } from '../identity/login-throttle';
import { requireMemberBy } from '../identity/members';
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
import { PasswordResets, siteBase } from '../identity/password-reset';

const userView = (s: UserState): AdminRightAnswer['user'] =>
  s.status === 'registered'
    ? { id: s.userId, email: s.email, pseudo: s.pseudo, role: s.role, is_admin: s.role === 'admin' }
    : null;

/** What a grant or a revoke of the administrator role did. */
interface RoleChange {
  position?: bigint;
  state: UserState;
}

/** Members (search, pages) and the administrator role (AdminRoleGranted / AdminRoleRevoked). */
export function adminUsersRouter(deps: AppDeps): Router {
  const admin = requireAdmin(deps);
  const queries = adminQueries(deps.read);
  const roles = adminRoleCommands(deps.events);
  const logins = new LoginThrottle(deps.limits);
  const resets = new PasswordResets(deps);
  const r = Router();
  /** The email the body names (`{ email }`). */
  const emailOf = (req: Request) => parseInput(EmailBody, bodyOf(req)).email;
  /** The member the body's email names: 404 when none. */
  const memberOf = async (req: Request) => requireMemberBy(deps.events, 'email', emailOf(req));
  /** After a grant or a revoke: its French message and the member as they are now. */
  const answerRole = async (req: Request, res: Response, result: RoleChange, message: string) => {
    await answerWrite(deps.sessions, req, res, result.position);
    res.json({ message, user: userView(result.state) } satisfies AdminRightAnswer);
  };

  /**
   * ?q= (in emails and pseudos, any case), ?page= (from 1), ?limit= (20, at most 100); each member
   * with their failed logins of the current window (from the login limits' counters)
   */
  r.get(
    '/admin/users',
    ...admin,
    route(async (req, res) => {
      const { q, page, limit } = parseInput(UsersQuery, req.query);
      const found = await queries.users(q, { page, limit });
      const failures = await Promise.all(found.items.map((u) => logins.failures(normalize(u.email))));
      res.json({
        ...found,
        items: found.items.map((u, i) => ({ ...u, login_failures: failures[i] })),
      } satisfies AdminUsersAnswer);
    }),
  );

  /**
   * Clears a member's failed logins, from every address (issue 29 item 7): they log in again at
   * once. Recorded as `LoginLockCleared` on their stream, with the administrator as actor (audit).
   */
  r.post(
    '/admin/users/unlock-login',
    ...admin,
    route(async (req, res) => {
      const member = await memberOf(req);
      const account = normalize(member.email);
      const failures = await logins.failures(account);
      await logins.clearAccount(account);
      const result = await handleCommand(
        deps.events,
        userStream(member.userId),
        userDecider,
        { type: 'ClearLoginLock', userId: member.userId, failures },
        contextOf(req),
      );
      await answerWrite(deps.sessions, req, res, result.position);
      res.json({ message: M.loginUnlocked(member.email, failures), login_failures: 0 } satisfies LoginUnlockedAnswer);
    }),
  );

  /**
   * A password reset link for a member, answered to the administrator to hand over (a member
   * without access to their email). Recorded as `PasswordResetIssued` by the administrator (audit).
   */
  r.post(
    '/admin/users/password-reset',
    ...admin,
    route(async (req, res) => {
      const member = await memberOf(req);
      const issued = await resets.issue(member, 'admin', siteBase(deps, req), contextOf(req));
      await answerWrite(deps.sessions, req, res, issued.position);
      res.json({
        message: RESET_MESSAGES.issuedByAdmin(member.email, resets.ttlMinutes),
        link: issued.link,
        expires_at: issued.expiresAt,
      } satisfies PasswordResetLinkAnswer);
    }),
  );

  r.post(
    '/admin/users/grant',
    ...admin,
    route(async (req, res) => {
      const email = emailOf(req);
      const result = await roles.grant(email, contextOf(req));
      await answerRole(req, res, result, result.events.length > 0 ? M.granted(email) : M.alreadyAdmin(email));
    }),
  );

  r.post(
    '/admin/users/revoke',
    ...admin,
    route(async (req, res) => {
      const email = emailOf(req);
      const result = await roles.revoke(queries, currentUserId(req), email, contextOf(req));
      await answerRole(req, res, result, M.revoked(email));
    }),
  );

  return r;
}
