import { Router } from 'express';
import { MODERATION_MESSAGES } from '@evo/domain';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { currentUserId } from '../http/session';
import { answerMessage } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { VideoIdParam } from '../social/http';
import { requireAdmin } from './require-admin';
import { setVideoVisibility } from './commands';
import { VisibilityBody } from './schemas';
import { bodyOf, parseInput } from '../http/request';

/**
 * PUT /api/videos/:id/visibility { status: masquée | publique | supprimée (also masquee,
 * supprimee), reason?: a sanction message }: an administrator hides, restores or deletes a video;
 * a hide or delete is a decision its author is told about, with the reason, and may contest.
 */
export function visibilityRouter(deps: AppDeps): Router {
  const r = Router();
  r.put(
    '/videos/:id/visibility',
    ...requireAdmin(deps),
    route(async (req, res) => {
      const { id } = parseInput(VideoIdParam, req.params);
      const { status, reason } = parseInput(VisibilityBody, bodyOf(req));
      const result = await setVideoVisibility(deps.events, currentUserId(req), id, status, contextOf(req), reason);
      await answerMessage(deps.sessions, req, res, result.position, MODERATION_MESSAGES.videoUpdated(status));
    }),
  );
  return r;
}
