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

  const mayRead = (me: UserDoc, ownerId: string | undefined) => me.is_admin === true || me._id === ownerId;

  const subjectOf = async (req: Request, me: UserDoc): Promise<UserDoc> => {
    const pseudo = req.query.pseudo;
    if (pseudo === undefined || pseudo === '') return me;
    if (typeof pseudo !== 'string') throw new HttpError(400, M.userNotFound);
    const subject = await users.userByPseudo(pseudo);
    if (!mayRead(me, subject?._id)) throw new HttpError(403, M.notYours);
    if (!subject) throw new HttpError(404, M.userNotFound);
    return subject;
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
      const video = /^[1-9]\d{0,14}$/.test(raw) ? await analytics.videoById(Number(raw)) : null;
      if (!mayRead(me, video?.user_id)) throw new HttpError(403, M.notYours);
      if (!video) throw new HttpError(404, M.videoNotFound);
      res.json(await analytics.video(video, period, new Date()));
    }),
  );
  return r;
}
