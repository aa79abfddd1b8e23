import { Router } from 'express';
import type { ReportAnsweredAnswer } from '@evo/contracts';
import { MODERATION_MESSAGES } from '@evo/domain';
import { moderationQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerMessage, answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { actingMember } from '../http/actor';
import { bodyOf, parseInput } from '../http/request';
import { VideoIdParam } from '../social/http';
import { requireAdmin } from '../admin/require-admin';
import { changeReportStatus, reportVideo } from './commands';
import { ReportDecisionBody, ReportIdParam, ReportReasonBody, ReportsQuery } from './schemas';
import { memberLimit } from '../http/member-limits';
import { decisionsRouter } from './decision-routes';

export const MODERATION_ROUTE_MESSAGES = {
  reported: '🚩 Signalement envoyé',
} as const;

/** how long an answer waits for the read models to include the decision it returns */
const ANSWER_WAIT_MS = 2000;

/**
 * Reports, from the member who files one to the administrators who handle it (the product API
 * call "Report a video" and the product rule "/admin/reports"): filing, the list, and the status /
 * sanction decisions.
 */
export function moderationRouter(deps: AppDeps): Router {
  const admin = requireAdmin(deps);
  const moderation = moderationQueries(deps.read);
  const r = Router();

  /** optional JSON body { reason }: trimmed, at most 500 characters, 'Non spécifié' when empty */
  r.post(
    '/report/:id',
    requireAuth,
    memberLimit(deps.limits, 'report', deps.config.MEMBER_LIMITS),
    route(async (req, res) => {
      const { id } = parseInput(VideoIdParam, req.params);
      const { reason } = parseInput(ReportReasonBody, bodyOf(req));
      const me = await actingMember(req, deps.events);
      const result = await reportVideo(deps.events, deps.ids, me.userId, id, reason, contextOf(req));
      await answerMessage(deps.sessions, req, res, result.position, MODERATION_ROUTE_MESSAGES.reported, 201);
    }),
  );

  /** newest first; optional `?status=` (one of the three) and `?limit=` (500 by default) */
  r.get(
    '/admin/reports',
    ...admin,
    route(async (req, res) => {
      const q = parseInput(ReportsQuery, req.query);
      res.json(await moderation.reports({ status: q.status, limit: q.limit }));
    }),
  );

  /** { status, admin_response } → { message: 'Réponse envoyée ✅', report } */
  r.put(
    '/admin/reports/:id',
    ...admin,
    route(async (req, res) => {
      const { id } = parseInput(ReportIdParam, req.params);
      const body = parseInput(ReportDecisionBody, bodyOf(req));
      const result = await changeReportStatus(
        deps.events,
        moderation,
        { requesterId: currentUserId(req), reportId: id, status: body.status, adminResponse: body.admin_response },
        contextOf(req),
      );
      await answerWrite(deps.sessions, req, res, result.position);
      if (result.position !== undefined) await deps.progress.waitFor(result.position, ANSWER_WAIT_MS);
      const report = (await moderation.report(id)) ?? {
        id,
        status: result.state.status,
        admin_response: result.state.adminResponse,
      };
      res.json({ message: MODERATION_MESSAGES.answered, report } satisfies ReportAnsweredAnswer);
    }),
  );

  r.use(decisionsRouter(deps));
  return r;
}
