import { Router } from 'express';
import { NOTIFICATION_MESSAGES } from '@evo/domain';
import { identityQueries, notificationsQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { sameEmail } from '../comments/commands';
import { deleteNotification, markAllNotificationsRead, markNotificationRead } from './commands';

const idParam = (raw: unknown): number => {
  const s = typeof raw === 'string' ? raw : '';
  if (!/^[1-9]\d{0,14}$/.test(s)) throw new HttpError(404, NOTIFICATION_MESSAGES.notFound);
  return Number(s);
};

/** An optional positive integer query parameter; anything else is ignored. */
const intQuery = (raw: unknown): number | undefined => (typeof raw === 'string' && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : undefined);

/**
 * GET    /notifications?email=&limit=&before=  -> Notification[] newest first
 * GET    /notifications/unread                 -> { unread }
 * PUT    /notifications/read-all               -> { message }
 * PUT    /notifications/:id/read               -> { message }
 * DELETE /notifications/:id                    -> { message }
 * Only their owner reads, marks or deletes notifications.
 */
export function notificationsRouter(deps: AppDeps): Router {
  const { events, read, sessions } = deps;
  const users = identityQueries(read);
  const queries = notificationsQueries(read);
  const r = Router();

  r.get(
    '/notifications',
    requireAuth,
    route(async (req, res) => {
      const userId = currentUserId(req);
      const email = req.query.email;
      if (email !== undefined && email !== '') {
        const me = await users.userById(userId);
        if (typeof email !== 'string' || !me || !sameEmail(email, me.email)) throw new HttpError(403, NOTIFICATION_MESSAGES.forbidden);
      }
      res.json(await queries.list(userId, { limit: intQuery(req.query.limit), before: intQuery(req.query.before) }));
    }),
  );

  r.get(
    '/notifications/unread',
    requireAuth,
    route(async (req, res) => {
      res.json({ unread: await queries.unread(currentUserId(req)) });
    }),
  );

  r.put(
    '/notifications/read-all',
    requireAuth,
    route(async (req, res) => {
      const position = await markAllNotificationsRead(events, currentUserId(req), contextOf(req));
      await answerWrite(sessions, req, res, position);
      res.json({ message: NOTIFICATION_MESSAGES.allRead });
    }),
  );

  r.put(
    '/notifications/:id/read',
    requireAuth,
    route(async (req, res) => {
      const position = await markNotificationRead(events, currentUserId(req), idParam(req.params.id), contextOf(req));
      await answerWrite(sessions, req, res, position);
      res.json({ message: NOTIFICATION_MESSAGES.read });
    }),
  );

  r.delete(
    '/notifications/:id',
    requireAuth,
    route(async (req, res) => {
      const position = await deleteNotification(events, currentUserId(req), idParam(req.params.id), contextOf(req));
      await answerWrite(sessions, req, res, position);
      res.json({ message: NOTIFICATION_MESSAGES.deleted });
    }),
  );

  return r;
}
