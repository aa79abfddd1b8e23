/** French labels of the analytics screens. Days are 'YYYY-MM-DD' Paris calendar days. */

const dayDate = (day: string) => new Date(`${day}T12:00:00Z`);
const short = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const long = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const numbers = new Intl.NumberFormat('fr-FR');

/** '12 janv.' */
export const shortDay = (day: string) => short.format(dayDate(day));
/** 'lundi 12 janvier' */
export const longDay = (day: string) => long.format(dayDate(day));
export const formatNumber = (n: number) => numbers.format(n);

/** '+3', '−2', '0' (a true minus sign) */
export const signed = (n: number) => (n > 0 ? `+${formatNumber(n)}` : n < 0 ? `−${formatNumber(-n)}` : '0');

/**
 * The change against the previous period: '+3 (+50 %)', '−1 (−25 %)', '+3' when the previous
 * period had none (no percentage of zero), 'stable'.
 */
export function change(current: number, previous: number): string {
  const delta = current - previous;
  if (delta === 0) return 'stable';
  if (previous <= 0) return signed(delta);
  const percent = Math.round((delta / previous) * 100);
  return `${signed(delta)} (${signed(percent)} %)`;
}
