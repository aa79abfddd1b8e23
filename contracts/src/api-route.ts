import type { ZodType, ZodTypeDef } from 'zod';

/**
 * A GET route of the API as the web app reads it: the path the server mounts (`:name` for a path
 * parameter) and the schema of its answer. The web app builds the URL, the query-cache key and the
 * decoding from it (web/src/api/queries.ts); each feature's routes sit beside its answers.
 */
export interface GetRoute<Answer = unknown, Path extends string = string> {
  readonly path: Path;
  readonly answer: ZodType<Answer, ZodTypeDef, unknown>;
}

/** The path parameters a route's path names: `'/api/users/stats/:email'` → `{ email: string }`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string | number } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string | number }
    : Record<never, never>;

/** The decoded answer of a route. */
export type AnswerOf<R extends GetRoute> = R extends GetRoute<infer Answer> ? Answer : never;

export const getRoute = <Path extends string, Answer>(
  path: Path,
  answer: ZodType<Answer, ZodTypeDef, unknown>,
): GetRoute<Answer, Path> => ({ path, answer });

/**
 * Builds a schema in a call the bundler knows to be free of side effects: a bundle that never uses
 * the schema (the web app, for the request bodies the server parses) leaves it, and the messages
 * only it names, out.
 */
export const pure = /* @__NO_SIDE_EFFECTS__ */ <T>(build: () => T): T => build();
