import { Router, type Request } from 'express';
import type { MessageSentAnswer } from '@evo/contracts';
import { MESSAGING_MESSAGES, MessageBody } from '@evo/domain';
import { identityQueries, messagingQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerMessage, answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { ownerNamed } from '../http/actor';
import { deleteConversation, sendMessage } from './commands';
import { bodyOf, parseInput } from '../http/request';
import { memberLimit } from '../http/member-limits';

/**
 * POST   /messages (and /messages/)           { senderEmail?, receiverEmail, content } -> 201 { message, item: Message }
 * GET    /messages/received/:email            -> Message[] (sent and received, oldest first)
 * GET    /messages/inbox                      -> [{ other_email, other_pseudo, other_profile_picture, last_message }]
 * GET    /messages/conversation/:email/:pseudo -> Message[] (oldest first)
 * DELETE /messages/:email/:otherEmail         -> { message } (hidden for the requester only)
 * Only the session user's own messages are readable: a path email that is not theirs is 403.
 */
export function messagingRouter(deps: AppDeps): Router {
  const { events, ids, read, sessions } = deps;
  const users = identityQueries(read);
  const messages = messagingQueries(read);
  const r = Router();

  /** the session user, who must be the one the path names */
  const pathOwner = (req: Request, email: string) => ownerNamed(req, users, email, MESSAGING_MESSAGES.forbidden);

  r.post(
    '/messages',
    memberLimit(deps.limits, 'message', deps.config.MEMBER_LIMITS),
    route(async (req, res) => {
      const body = parseInput(MessageBody, bodyOf(req));
      const result = await sendMessage(
        events,
        ids,
        {
          senderId: req.session?.userId ?? null,
          claimedSenderEmail: body.senderEmail,
          receiverEmail: body.receiverEmail,
          content: body.content,
        },
        contextOf(req),
      );
      await answerWrite(sessions, req, res, result.position);
      res.status(201).json({ message: MESSAGING_MESSAGES.sent, item: result.message } satisfies MessageSentAnswer);
    }),
  );

  r.get(
    '/messages/inbox',
    requireAuth,
    route(async (req, res) => {
      res.json(await messages.inbox(currentUserId(req)));
    }),
  );

  r.get(
    '/messages/received/:email',
    requireAuth,
    route(async (req, res) => {
      const me = await pathOwner(req, String(req.params.email));
      res.json(await messages.allOf(me._id));
    }),
  );

  r.get(
    '/messages/conversation/:email/:pseudo',
    requireAuth,
    route(async (req, res) => {
      const me = await pathOwner(req, String(req.params.email));
      const other = await users.userByPseudo(String(req.params.pseudo));
      if (!other) throw new HttpError(404, MESSAGING_MESSAGES.userNotFound);
      res.json(await messages.thread(me._id, other._id));
    }),
  );

  r.delete(
    '/messages/:email/:otherEmail',
    requireAuth,
    route(async (req, res) => {
      const position = await deleteConversation(
        events,
        {
          userId: currentUserId(req),
          claimedEmail: String(req.params.email),
          otherEmail: String(req.params.otherEmail),
        },
        contextOf(req),
      );
      await answerMessage(sessions, req, res, position, MESSAGING_MESSAGES.conversationDeleted);
    }),
  );

  return r;
}
