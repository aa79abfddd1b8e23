import { Router } from 'express';
import type { UnreadAnswer } from '@evo/contracts';
import { NOTIFICATION_ID_PATTERN, NOTIFICATION_MESSAGES, type NotificationId } from '@evo/domain';
import { identityQueries, notificationsQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerMessage } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { ownerNamed } from '../http/actor';
import { markAllNotificationsRead, onOwnNotification } from './commands';

const MAX_POSITION = (1n << 128n) - 1n;

/** A notification id is a log position in decimal (up to 2^128 - 1); anything else names none. */
const isNotificationId = (s: unknown): s is NotificationId =>
  typeof s === 'string' && NOTIFICATION_ID_PATTERN.test(s) && BigInt(s) <= MAX_POSITION;

const idParam = (raw: unknown): NotificationId => {
  if (!isNotificationId(raw)) throw new HttpError(404, NOTIFICATION_MESSAGES.notFound);
  return raw;
};

/** An optional positive integer query parameter; anything else is ignored. */
const intQuery = (raw: unknown): number | undefined =>
  typeof raw === 'string' && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : undefined;

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

  /**
   * An id that names a notification (of anyone, deleted or not): only then is the log read at that
   * position, where the commands find who owns it (EventStoreDB cannot read from a made-up position).
   */
  const knownId = async (raw: unknown): Promise<NotificationId> => {
    const id = idParam(raw);
    if (!(await queries.exists(id))) throw new HttpError(404, NOTIFICATION_MESSAGES.notFound);
    return id;
  };

  r.get(
    '/notifications',
    requireAuth,
    route(async (req, res) => {
      const userId = currentUserId(req);
      const email = req.query.email;
      if (email !== undefined && email !== '') {
        await ownerNamed(req, users, email, NOTIFICATION_MESSAGES.forbidden);
      }
      const before = isNotificationId(req.query.before) ? req.query.before : undefined;
      res.json(await queries.list(userId, { limit: intQuery(req.query.limit), before }));
    }),
  );

  r.get(
    '/notifications/unread',
    requireAuth,
    route(async (req, res) => {
      res.json({ unread: await queries.unread(currentUserId(req)) } satisfies UnreadAnswer);
    }),
  );

  /** PUT (read) or DELETE on one notification of the session member. */
  const oneNotificationRoute = (type: 'MarkNotificationRead' | 'DeleteNotification', message: string) =>
    route(async (req, res) => {
      const userId = currentUserId(req);
      const position = await onOwnNotification(events, userId, type, await knownId(req.params.id), contextOf(req));
      await answerMessage(sessions, req, res, position, message);
    });

  r.put(
    '/notifications/read-all',
    requireAuth,
    route(async (req, res) => {
      const position = await markAllNotificationsRead(events, currentUserId(req), contextOf(req));
      await answerMessage(sessions, req, res, position, NOTIFICATION_MESSAGES.allRead);
    }),
  );

  r.put(
    '/notifications/:id/read',
    requireAuth,
    oneNotificationRoute('MarkNotificationRead', NOTIFICATION_MESSAGES.read),
  );

  r.delete(
    '/notifications/:id',
    requireAuth,
    oneNotificationRoute('DeleteNotification', NOTIFICATION_MESSAGES.deleted),
  );

  return r;
}
