import type { Request } from 'express';
import type { z, ZodTypeAny } from 'zod';
import { HttpError, MESSAGES } from './errors';

/** The JSON body as an object: anything else (absent, an array, a bare value) counts as empty. */
export const bodyOf = (req: Pick<Request, 'body'>): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};

/**
 * The one parser of what a request sends (body, path parameters, query): an absent input reads as
 * `{}`, and a refusal is a 400 with the first failure's French message, the schema's own when it
 * has one, else the HTTP layer's zod error map (`useFrenchZodErrors`, installed by `createApp`).
 */
export function parseInput<S extends ZodTypeAny>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input ?? {});
  if (!r.success) throw new HttpError(400, r.error.issues[0]?.message ?? MESSAGES.badForm);
  return r.data;
}
