import { Router } from 'express';
import type { SearchAnswer } from '@evo/contracts';
import { SearchQuery } from '@evo/domain';
import { searchQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { parseInput } from '../http/request';

/** The search (members by pseudo, videos by title), from its read model (projections/src/search). */
export function searchRouter(deps: AppDeps): Router {
  const queries = searchQueries(deps.read);
  const r = Router();

  r.get(
    '/search',
    requireAuth,
    route(async (req, res) => {
      const { q } = parseInput(SearchQuery, req.query);
      res.json((await queries.search(q, currentUserId(req))) satisfies SearchAnswer);
    }),
  );

  return r;
}
