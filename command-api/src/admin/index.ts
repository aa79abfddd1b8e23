import { Router } from 'express';
import type { AppDeps } from '../deps';
import { visibilityRouter } from './visibility-routes';
import { adminGiftsRouter } from './gifts-routes';
import { statsRouter } from './stats-routes';
import { adminUsersRouter } from './users-routes';
import { auditRouter } from './audit-routes';
import { projectionsRouter } from './projections-routes';

export { requireAdmin } from './require-admin';

/** The back-office under /api: one router per concern, every route behind `requireAdmin`. */
export function adminRouter(deps: AppDeps): Router {
  const r = Router();
  for (const sub of [visibilityRouter, adminGiftsRouter, statsRouter, adminUsersRouter, auditRouter, projectionsRouter])
    r.use(sub(deps));
  return r;
}
