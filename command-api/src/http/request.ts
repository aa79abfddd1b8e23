import type { Request } from 'express';
import { z, type ZodTypeAny } from 'zod';
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

/** `{ id }`: a positive integer id in a path (`:id`), every failure with `message`. */
export const idParam = (message: string) =>
  z.object({
    id: z
      .string({ required_error: message, invalid_type_error: message })
      .regex(/^\d{1,15}$/, message)
      .transform(Number)
      .refine((n) => n > 0, message),
  });
