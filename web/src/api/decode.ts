import type { ZodType, ZodTypeDef } from 'zod';
import { InvalidAnswerError } from './http';

/**
 * Every answer the web app reads is parsed with its schema from `@evo/contracts`, the one the
 * server's answers are typed and tested with: a screen gets exactly the contract's type, and an
 * answer of another shape fails the call with `InvalidAnswerError` (its French message is shown
 * where a failed load or action is), never with a crash further in.
 *
 *   const wallet = decode(WalletAnswer, await api.get(`/api/coins/balance/${email}`, { signal }));
 */
export function decode<T>(schema: ZodType<T, ZodTypeDef, unknown>, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  console.warn('Réponse hors contrat', parsed.error.issues);
  throw new InvalidAnswerError(parsed.error.issues);
}
