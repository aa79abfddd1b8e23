/** The guard of a fixed list of strings (statuses, scopes, messages): is `value` one of them? */
export const isOneOf =
  <T extends string>(list: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (list as readonly string[]).includes(value);
