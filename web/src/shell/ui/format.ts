/** Number formats every screen shares (fr-FR): counts, coins, signed amounts. */

const NUMBER = new Intl.NumberFormat('fr-FR');

/** '1 250' (narrow no-break space as thousands separator). */
export function formatNumber(value: number): string {
  return NUMBER.format(value);
}

/** '1 coin', '0 coin', '1 250 coins' (French: plural from 2). */
export function formatCoins(value: number): string {
  return `${NUMBER.format(value)} ${Math.abs(value) >= 2 ? 'coins' : 'coin'}`;
}

/** '+50' / '−20' / '0' (a real minus sign). */
export function formatSigned(value: number): string {
  if (value > 0) return `+${NUMBER.format(value)}`;
  if (value < 0) return `−${NUMBER.format(-value)}`;
  return '0';
}
