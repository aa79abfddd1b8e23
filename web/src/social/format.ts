/** French formatting helpers shared by the social, videos, notifications and messaging slices. */

const compact = new Intl.NumberFormat('fr-FR', { notation: 'compact', maximumFractionDigits: 1 });

/** 950 → "950", 1200 → "1,2 k". Negative or invalid values show 0. */
export function formatCount(value: number | null | undefined): string {
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : 0;
  return n < 1000 ? String(Math.floor(n)) : compact.format(n);
}

/** French plural for a counted noun: plural(2, 'vue', 'vues') → "2 vues". */
export function plural(value: number, one: string, many: string): string {
  return `${value} ${Math.abs(value) >= 2 ? many : one}`;
}

export function parseDate(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  // SQL-style "2025-03-01 14:32:00" without a zone is UTC on the server.
  const text = typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

const relative = new Intl.RelativeTimeFormat('fr-FR', { numeric: 'auto' });
const dayMonth = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short' });
const dayMonthYear = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', year: 'numeric' });
const hourMinute = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit' });
const weekday = new Intl.DateTimeFormat('fr-FR', { weekday: 'short' });
const full = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short' });

/** "à l'instant", "il y a 5 minutes", "hier", then "12 mars". */
export function formatRelative(value: string | number | null | undefined, now = Date.now()): string {
  const date = parseDate(value);
  if (!date) return '';
  const seconds = Math.round((date.getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "à l'instant";
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86400) return relative.format(Math.round(seconds / 86400), 'day');
  return new Date(now).getFullYear() === date.getFullYear() ? dayMonth.format(date) : dayMonthYear.format(date);
}

/** Message times: "14:32" today, "lun." this week, "12 mars" before. */
export function formatMessageTime(value: string | number | null | undefined, now = Date.now()): string {
  const date = parseDate(value);
  if (!date) return '';
  const today = new Date(now);
  if (date.toDateString() === today.toDateString()) return hourMinute.format(date);
  if (now - date.getTime() < 6 * 86400 * 1000 && date.getTime() <= now) return weekday.format(date);
  return today.getFullYear() === date.getFullYear() ? dayMonth.format(date) : dayMonthYear.format(date);
}

/** Full date for a `<time title>` / screen readers: "12 mars 2025 à 14:32". */
export function formatFullDate(value: string | number | null | undefined): string {
  const date = parseDate(value);
  return date ? full.format(date) : '';
}

/** ISO string for `<time dateTime>`. */
export function isoDate(value: string | number | null | undefined): string | undefined {
  return parseDate(value)?.toISOString();
}

/** Seconds → "0:15", "1:02:03". */
export function formatDuration(seconds: number | null | undefined): string | null {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return null;
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Trimmed, case-insensitive email/pseudo comparison. */
export function sameIdentity(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export const userPath = (pseudo: string) => `/user/${encodeURIComponent(pseudo)}`;
/** The gift catalogue for a member, by pseudo: a member's email never goes in a URL. */
export const catalogueForPath = (pseudo: string) => `/catalogue?receiver=${encodeURIComponent(pseudo)}`;
export const sendMessagePath = (pseudo: string) => `/send-message/${encodeURIComponent(pseudo)}`;
