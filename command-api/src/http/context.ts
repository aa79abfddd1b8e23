import { randomUUID } from 'node:crypto';
import type { CommandContext } from '@evo/infra';

/** Command metadata from the request: the actor is always the session user (or `actor`, at login). */
export const contextOf = (
  req: { session?: { userId: string }; get(h: string): string | undefined },
  actor = req.session?.userId,
  now = new Date(),
): CommandContext => ({
  userId: actor,
  correlationId: req.get('X-Correlation-Id')?.slice(0, 100) || randomUUID(),
  idempotencyKey: req.get('Idempotency-Key')?.slice(0, 200) || undefined,
  now,
});
