/** Number and date formats of the coin and gift screens (fr-FR). */

const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });
const COUNT = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
const DATE_TIME = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short' });

/** 5 → '5,00 €' (the product business constants: euro prices with 2 decimals). */
export function formatEuros(value: number): string {
  return EUROS.format(value);
}

/** 1250 → '1 250' (narrow no-break space as thousands separator). */
export function formatNumber(value: number): string {
  return COUNT.format(value);
}

/** 1 → '1 coin', 1250 → '1 250 coins'. */
export function formatCoins(value: number): string {
  return `${formatNumber(value)} ${Math.abs(value) >= 2 ? 'coins' : 'coin'}`;
}

/** +110 / −50 (typographic minus), for a signed amount. */
export function formatSigned(value: number): string {
  if (value > 0) return `+${formatNumber(value)}`;
  if (value < 0) return `−${formatNumber(-value)}`;
  return '0';
}

/** ISO date → '12/03/2025 14:05'; '' when missing or invalid. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE_TIME.format(date);
}
