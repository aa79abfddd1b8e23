import { Router } from 'express';
import { adminQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { requireAdmin } from './require-admin';
import { PageQuery } from './schemas';
import { parseInput } from '../http/request';

/** The administrators' actions, newest first: ?page= (from 1), ?limit= (20, at most 100). */
export function auditRouter(deps: AppDeps): Router {
  const queries = adminQueries(deps.read);
  const r = Router();
  r.get(
    '/admin/audit',
    ...requireAdmin(deps),
    route(async (req, res) => {
      const { page, limit } = parseInput(PageQuery, req.query);
      res.json(await queries.audit({ page, limit }));
    }),
  );
  return r;
}
