import { Router } from 'express';
import type { ReportAnsweredAnswer } from '@evo/contracts';
import { MODERATION_MESSAGES } from '@evo/domain';
import { moderationQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { currentUserId } from '../http/session';
import { answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { parseInput } from '../ledger/schemas';
import { bodyOf } from '../social/http';
import { requireAdmin } from './require-admin';
import { changeReportStatus } from './commands';
import { ReportBody, ReportIdParam, ReportsQuery } from './schemas';

/** how long an answer waits for the read models to include the decision it returns */
const ANSWER_WAIT_MS = 2000;

/** Reports to handle (the product rule "/admin/reports"): the list, and the status / sanction decisions. */
export function reportsRouter(deps: AppDeps): Router {
  const admin = requireAdmin(deps);
  const moderation = moderationQueries(deps.read);
  const r = Router();

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
      const body = parseInput(ReportBody, bodyOf(req));
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

  return r;
}
