import { Router, type Request } from 'express';
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '@evo/contracts';
import { analyticsQueries, identityQueries, type UserDoc } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { requireAuth } from '../http/session';
import { sessionUser } from '../http/actor';

export const ANALYTICS_MESSAGES = {
  badPeriod: 'Période invalide : choisis 7, 30 ou 60 jours.',
  notYours: 'Tu ne peux consulter que tes propres statistiques.',
  userNotFound: 'Utilisateur introuvable.',
  videoNotFound: 'Vidéo introuvable.',
} as const;
const M = ANALYTICS_MESSAGES;

/** `?period=7|30|60`, 7 when absent; anything else (another number, a list, text) is 400. */
export function periodOf(raw: unknown): AnalyticsPeriod {
  if (raw === undefined) return 7;
  const period = ANALYTICS_PERIODS.find((p) => String(p) === raw);
  if (period === undefined) throw new HttpError(400, M.badPeriod);
  return period;
}

/**
 * GET /analytics?period=&pseudo=     -> CreatorAnalyticsAnswer (the session member's, or `pseudo`'s)
 * GET /analytics/videos/:id?period=  -> VideoAnalyticsAnswer
 * A member reads their own analytics and their own videos' (403 otherwise, whether or not the
 * other member or video exists); administrators read anyone's (404 for what does not exist).
 */
export function analyticsRouter(deps: AppDeps): Router {
  const users = identityQueries(deps.read);
  const analytics = analyticsQueries(deps.read);
  const r = Router();

  /**
   * What `me` may read, found or not: their own, or anything for an administrator (403 otherwise,
   * whether or not it exists; 404 when it does not).
   */
  const readable = <T>(me: UserDoc, found: T | null | undefined, ownerId: string | undefined, notFound: string): T => {
    if (me.is_admin !== true && me._id !== ownerId) throw new HttpError(403, M.notYours);
    if (!found) throw new HttpError(404, notFound);
    return found;
  };

  const subjectOf = async (req: Request, me: UserDoc): Promise<UserDoc> => {
    const pseudo = req.query.pseudo;
    if (pseudo === undefined || pseudo === '') return me;
    if (typeof pseudo !== 'string') throw new HttpError(400, M.userNotFound);
    const subject = await users.userByPseudo(pseudo);
    return readable(me, subject, subject?._id, M.userNotFound);
  };

  r.get(
    '/analytics',
    requireAuth,
    route(async (req, res) => {
      const period = periodOf(req.query.period);
      const me = await sessionUser(req, users);
      const subject = await subjectOf(req, me);
      res.json(await analytics.creator(subject, period, new Date()));
    }),
  );

  r.get(
    '/analytics/videos/:id',
    requireAuth,
    route(async (req, res) => {
      const period = periodOf(req.query.period);
      const me = await sessionUser(req, users);
      const raw = String(req.params.id);
      const found = /^[1-9]\d{0,14}$/.test(raw) ? await analytics.videoById(Number(raw)) : null;
      const video = readable(me, found, found?.user_id, M.videoNotFound);
      res.json(await analytics.video(video, period, new Date()));
    }),
  );
  return r;
}
