import { Router } from 'express';
import type { CommentPostedAnswer, CommentsAnswer } from '@evo/contracts';
import { COMMENT_MESSAGES, CommentBody } from '@evo/domain';
import { commentsQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { postComment } from './commands';
import { memberLimit } from '../http/member-limits';
import { bodyOf, parseInput } from '../http/request';

/** A video id from the path; anything else names no video. */
export function videoIdParam(raw: unknown): number {
  const s = typeof raw === 'string' ? raw : '';
  if (!/^[1-9]\d{0,14}$/.test(s)) throw new HttpError(404, COMMENT_MESSAGES.videoNotFound);
  return Number(s);
}

/**
 * GET  /videos/:id/comments (no session needed) -> { items: [{ id, parent_id, user_pseudo, user_profile_picture, content, created_at }] }
 * POST /videos/:id/comment  { userEmail?, userPseudo?, content, parentId? } -> 201 { message, item }
 */
export function commentsRouter(deps: AppDeps): Router {
  const { events, ids, read, sessions } = deps;
  const queries = commentsQueries(read);
  const r = Router();

  /** a public video's comments to anyone, visitors too (read-only: posting needs a session) */
  r.get(
    '/videos/:id/comments',
    route(async (req, res) => {
      const videoId = videoIdParam(req.params.id);
      const items = await queries.ofVideo(videoId, req.session?.userId);
      if (!items) throw new HttpError(404, COMMENT_MESSAGES.videoNotFound);
      res.json({ items } satisfies CommentsAnswer);
    }),
  );

  r.post(
    '/videos/:id/comment',
    requireAuth,
    memberLimit(deps.limits, 'comment', deps.config.MEMBER_LIMITS),
    route(async (req, res) => {
      const videoId = videoIdParam(req.params.id);
      const body = parseInput(CommentBody, bodyOf(req));
      const result = await postComment(
        events,
        ids,
        {
          videoId,
          authorId: currentUserId(req),
          claimedEmail: body.userEmail,
          parentId: body.parentId,
          content: body.content,
        },
        contextOf(req),
      );
      await answerWrite(sessions, req, res, result.position);
      res.status(201).json({ message: COMMENT_MESSAGES.posted, item: result.comment } satisfies CommentPostedAnswer);
    }),
  );

  return r;
}
