/** French formatting helpers of the admin screens (dates fr-FR, counts, signed amounts). */

export { formatCoins, formatNumber, formatSigned } from '../shell/ui/format';

const DECIMAL = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 2 });
const DATE_TIME = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short' });
const DATE = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short' });

const parse = (iso: string | null | undefined): Date | null => {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** '12/03/2025 14:05', or '—' for a missing or invalid date. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? DATE_TIME.format(date) : '—';
}

/** '12/03/2025', or '—'. */
export function formatDate(iso: string | null | undefined): string {
  const date = parse(iso);
  return date ? DATE.format(date) : '—';
}

/** Up to two decimals: '3,5'. */
export function formatDecimal(value: number): string {
  return DECIMAL.format(value);
}

const TENTHS = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** '0,2 s', '3,1 s', '42 s', '2 min 05 s', '1 h 02 min'. */
export function formatDuration(seconds: number): string {
  const safe = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  // a rebuild of a small log takes a few milliseconds: not '0 s'
  if (safe < 0.05) return 'moins de 0,1 s';
  if (safe < 10) return `${TENTHS.format(safe)} s`;
  const total = Math.round(safe);
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  const rest = total % 60;
  if (minutes < 60) return `${minutes} min ${String(rest).padStart(2, '0')} s`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO instant → the value of an <input type="datetime-local"> in the browser's time zone. */
export function localInputFromIso(iso: string | null): string {
  const date = parse(iso);
  if (!date) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** <input type="datetime-local"> value (local time) → ISO instant; '' or invalid → null. */
export function isoFromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
