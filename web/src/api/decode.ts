/**
 * Lenient readers of JSON answers: a screen shows what it can of a field that is missing or of
 * another type, instead of failing.
 */
export type Row = Record<string, unknown>;

/** A finite number (numeric strings too), 0 otherwise. */
export const num = (value: unknown): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : 0;
};

/** A string, '' otherwise. */
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A string, a number or boolean written as one (ids, counts), '' when absent. */
export const scalarText = (value: unknown): string =>
  typeof value === 'string' ? value : value == null ? '' : String(value);

/** A finite number (`Number()` of anything the server sent), or `fallback` when nothing usable came. */
export const numOr = (value: unknown, fallback: number): number => {
  if (value === null || value === undefined || value === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
};

/** The objects of an array answer; anything else gives none. */
export const rows = (data: unknown): Row[] =>
  Array.isArray(data) ? data.filter((r): r is Row => Boolean(r) && typeof r === 'object') : [];

/** A finite number, undefined otherwise. */
export const optionalNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
