/** Number and date formats of the coin and gift screens (fr-FR); counts and coins are every screen's. */

export { formatCoins, formatNumber, formatSigned } from '../shell/ui/format';

const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });
const DATE_TIME = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short' });

/** 5 → '5,00 €' (the product business constants: euro prices with 2 decimals). */
export function formatEuros(value: number): string {
  return EUROS.format(value);
}

/** ISO date → '12/03/2025 14:05'; '' when missing or invalid. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE_TIME.format(date);
}
