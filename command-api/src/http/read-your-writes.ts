import type { Request, Response, RequestHandler } from 'express';
import type { z, ZodTypeAny } from 'zod';
import type { MessageAnswer } from '@evo/contracts';
import type { CommandContext } from '@evo/infra';
import type { ProjectionProgress } from '@evo/projections';
import { currentUserId, requireAuth, type Sessions } from './session';
import { route } from './errors';
import { parseInput } from './request';
import { contextOf } from './context';

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

/** After a command: the position it wrote (as `answerWrite`), then its French `{ message }`. */
export async function answerMessage(
  sessions: Sessions,
  req: Request,
  res: Response,
  position: bigint | undefined,
  message: string,
  status = 200,
): Promise<void> {
  await answerWrite(sessions, req, res, position);
  res.status(status).json({ message } satisfies MessageAnswer);
}

/** Answer a command: the position it wrote (as `answerWrite`), then its JSON body. */
async function answerCommand(sessions: Sessions, req: Request, res: Response, answer: CommandAnswer): Promise<void> {
  await answerWrite(sessions, req, res, answer.position);
  res.json(answer.body);
}

/** What a command handler answers: the JSON body, and the position it wrote (none for a replay of nothing). */
export interface CommandAnswer {
  body: unknown;
  position?: bigint;
}

/**
 * The route of a member's command: signed in, then `guards`, the body parsed with the contract's
 * schema (a French 400 otherwise), the member from the session, and `run`'s answer with its position.
 */
export function commandRoute<S extends ZodTypeAny>(
  sessions: Sessions,
  schema: S,
  run: (userId: string, body: z.output<S>, ctx: CommandContext) => Promise<CommandAnswer>,
  ...guards: RequestHandler[]
): RequestHandler[] {
  return [
    requireAuth,
    ...guards,
    route(async (req, res) => {
      const body = parseInput(schema, req.body);
      await answerCommand(sessions, req, res, await run(currentUserId(req), body, contextOf(req)));
    }),
  ];
}
