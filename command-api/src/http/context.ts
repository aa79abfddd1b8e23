import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { CommandContext } from '@evo/infra';
import { HttpError, MESSAGES } from './errors';

/** The longest Idempotency-Key taken (a longer one is refused, never cut: two keys cut alike would be one). */
export const IDEMPOTENCY_KEY_MAX = 200;

/** Before any route: an over-long Idempotency-Key answers 400 in French and nothing is done. */
export const idempotencyKeyGuard: RequestHandler = (req, _res, next) => {
  const key = req.get('Idempotency-Key');
  next(
    key !== undefined && key.length > IDEMPOTENCY_KEY_MAX
      ? new HttpError(400, MESSAGES.idempotencyKeyTooLong)
      : undefined,
  );
};

/** Command metadata from the request: the actor is always the session user (or `actor`, at login). */
export const contextOf = (
  req: { session?: { userId: string }; get(h: string): string | undefined },
  actor = req.session?.userId,
  now = new Date(),
): CommandContext => ({
  userId: actor,
  correlationId: req.get('X-Correlation-Id')?.slice(0, 100) || randomUUID(),
  // at most IDEMPOTENCY_KEY_MAX long: idempotencyKeyGuard refused the others
  idempotencyKey: req.get('Idempotency-Key') || undefined,
  now,
});
