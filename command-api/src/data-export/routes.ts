import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import type { DataExportRequestAnswer, DataExportsAnswer } from '@evo/contracts';
import {
  DATA_EXPORT_MESSAGES as M,
  accountDeletedIn,
  archiveFor,
  dataExportDecider,
  dataExportStream,
  gone,
  notFound,
  userStream,
  type ArchiveViewer,
} from '@evo/domain';
import { childLogger, handleCommand, loadState } from '@evo/infra';
import { dataExportQueries, requestedDataExport, toDataExportView, type DataExportDoc } from '@evo/projections';
import { dataExportJobOptions } from '@evo/domain';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { ACTOR_MESSAGES } from '../http/actor';

const log = childLogger('data-export');

/** an export id is a UUID we made; anything else names none */
const EXPORT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MEMBER_ID = /^[A-Za-z0-9-]{1,64}$/;

const exportIdParam = (raw: unknown): string => {
  if (typeof raw !== 'string' || !EXPORT_ID.test(raw)) throw notFound(M.notFound);
  return raw;
};

const memberUrl = (d: DataExportDoc) => (d.by_admin ? null : `/api/me/data-exports/${d._id}/download`);
const adminUrl = (d: DataExportDoc) =>
  d.by_admin ? `/api/admin/users/${d.member_id}/data-exports/${d._id}/download` : null;

/**
 * "Mes données" (issue 31): a member asks for an archive of everything EVO holds about them, built
 * by the 'data-export.build' job; an administrator produces the same for a member (a request
 * received by post). Each archive is downloaded only by whoever asked: the member's own by the
 * member (their session), an administrator's by administrators; anyone else gets 404 (nothing says
 * it exists), a visitor 401.
 *
 * POST /me/data-exports                                   -> 202 { message, export }
 * GET  /me/data-exports                                   -> { exports, ttl_days, can_request }
 * GET  /me/data-exports/:id/download                      -> the ZIP
 * POST /admin/users/:memberId/data-exports                -> 202 (requireAdmin: every /admin path)
 * GET  /admin/users/:memberId/data-exports                -> the member's archives as administrators see them
 * GET  /admin/users/:memberId/data-exports/:id/download   -> the ZIP of an administrator's archive
 */
export function dataExportRouter(deps: AppDeps): Router {
  const { events, files } = { events: deps.events, files: deps.uploads.files };
  const queries = dataExportQueries(deps.read);
  const r = Router();

  /** the member's stream: 404 (or, for the session member, 401) when there is none, and whether it is deleted */
  const memberOf = async (memberId: string, self: boolean) => {
    const stream = MEMBER_ID.test(memberId) ? await events.readStream(userStream(memberId)) : [];
    if (stream.length === 0)
      throw self ? new HttpError(401, ACTOR_MESSAGES.sessionExpired) : notFound(M.memberNotFound);
    return { accountDeleted: accountDeletedIn(stream) };
  };

  const request = async (req: Request, res: Response, memberId: string, byAdmin: boolean) => {
    const actor = currentUserId(req);
    const { accountDeleted } = await memberOf(memberId, !byAdmin);
    const exportId = randomUUID();
    const ctx = contextOf(req);
    const result = await handleCommand(
      events,
      dataExportStream(memberId),
      dataExportDecider,
      { type: 'RequestDataExport', exportId, memberId, requestedBy: actor, byAdmin, accountDeleted, now: ctx.now },
      ctx,
    );
    await deps.jobs.add('data-export.build', { exportId, memberId }, dataExportJobOptions(exportId));
    await answerWrite(deps.sessions, req, res, result.position);
    const doc = requestedDataExport({ exportId, memberId, requestedBy: actor, byAdmin, at: ctx.now.toISOString() });
    res.status(202).json({
      message: byAdmin ? M.requestedAdmin : M.requested,
      export: toDataExportView(doc, ctx.now, null),
    } satisfies DataExportRequestAnswer);
  };

  /** the archive's file, streamed, once the member's stream says this viewer may have it */
  const download = async (req: Request, res: Response, memberId: string, viewer: ArchiveViewer) => {
    const exportId = exportIdParam(req.params.id);
    const { state } = await loadState(events, dataExportStream(memberId), dataExportDecider);
    const userEvents = MEMBER_ID.test(memberId) ? await events.readStream(userStream(memberId)) : [];
    const archive = archiveFor(state, exportId, viewer, new Date(), accountDeletedIn(userEvents));
    const body = await files.read('exports', archive.fileName);
    // swept already (its life is over), or lost with the storage
    if (!body) throw gone(M.expired);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="evo-mes-donnees-${exportId.slice(0, 8)}.zip"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    try {
      await pipeline(body, res);
    } catch (err) {
      // the client went away mid-download, or the storage failed after the headers: nothing to answer
      log.warn({ err, exportId }, 'archive download interrupted');
    }
  };

  r.post(
    '/me/data-exports',
    requireAuth,
    route((req, res) => request(req, res, currentUserId(req), false)),
  );

  r.get(
    '/me/data-exports',
    requireAuth,
    route(async (req, res) => {
      res.json((await queries.list(currentUserId(req), new Date(), memberUrl)) satisfies DataExportsAnswer);
    }),
  );

  r.get(
    '/me/data-exports/:id/download',
    requireAuth,
    route((req, res) => {
      const me = currentUserId(req);
      return download(req, res, me, { userId: me, isAdmin: false });
    }),
  );

  // every /api/admin/* path is behind requireAdmin (app.ts): 401 without a session, 403 for members
  r.post(
    '/admin/users/:memberId/data-exports',
    route((req, res) => request(req, res, req.params.memberId as string, true)),
  );

  r.get(
    '/admin/users/:memberId/data-exports',
    route(async (req, res) => {
      const memberId = req.params.memberId as string;
      await memberOf(memberId, false);
      res.json((await queries.list(memberId, new Date(), adminUrl)) satisfies DataExportsAnswer);
    }),
  );

  r.get(
    '/admin/users/:memberId/data-exports/:id/download',
    route((req, res) =>
      download(req, res, req.params.memberId as string, { userId: currentUserId(req), isAdmin: true }),
    ),
  );

  return r;
}
