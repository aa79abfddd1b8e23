/**
 * Analytics count by calendar day in Europe/Paris (the product's public is French): an event at
 * 23:30 UTC on a summer evening belongs to the next Paris day. A day is written 'YYYY-MM-DD'.
 */
export const ANALYTICS_TIME_ZONE = 'Europe/Paris';

const DAY_MS = 86_400_000;
// en-CA formats a date as YYYY-MM-DD
const parisDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: ANALYTICS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The Paris calendar day of an instant (an ISO string or a Date). */
export function parisDay(at: string | Date): string {
  return parisDate.format(typeof at === 'string' ? new Date(at) : at);
}

const toUtcMidnight = (day: string) => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10));
const fromUtcMidnight = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The calendar day `n` days after `day` (before when negative): label arithmetic, no time zone. */
export function addDays(day: string, n: number): string {
  return fromUtcMidnight(toUtcMidnight(day) + n * DAY_MS);
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
