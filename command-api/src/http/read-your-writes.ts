import type { Request, Response, RequestHandler } from 'express';
import type { Sessions } from './session';
import type { ProjectionProgress } from '@evo/projections';

export const POSITION_HEADER = 'X-Evo-Position';
const WAIT_MS = 2000;

/**
 * Before answering a query, wait (bounded) until the read models include everything this
 * session wrote, so that a member always sees their own changes.
 */
export const awaitOwnWrites =
  (progress: ProjectionProgress): RequestHandler =>
  (req, _res, next) => {
    const pos = req.session?.lastPosition;
    if (req.method !== 'GET' || !pos) return next();
    progress
      .waitFor(BigInt(pos), WAIT_MS)
      .then(() => next())
      .catch(next);
  };

/** After a command: tell the client the position written and remember it for the session. */
export async function answerWrite(
  sessions: Sessions,
  req: Request,
  res: Response,
  position: bigint | undefined,
): Promise<void> {
  if (position === undefined) return;
  res.setHeader(POSITION_HEADER, position.toString());
  await sessions.noteWrite(req, position);
}

/** Answer a command: the position it wrote (as `answerWrite`), then its JSON body. */
export async function answerCommand(
  sessions: Sessions,
  req: Request,
  res: Response,
  answer: { body: unknown; position?: bigint },
): Promise<void> {
  await answerWrite(sessions, req, res, answer.position);
  res.json(answer.body);
}
