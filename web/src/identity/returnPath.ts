/**
 * Where a visitor was going when they were asked to log in: kept in the login URL
 * (`/login?retour=/video/12`) so that it survives a reload and the detour by /register.
 * Only a path of this site is ever followed (no open redirect).
 */

export const RETURN_PARAM = 'retour';

const BASE = 'https://evo.invalid';
const AUTH_PATHS = ['/login', '/register'];

const hasControlCharacter = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** The same-site path `raw` names, or null for anything else (other host, scheme, backslash, control character). */
export function safeReturnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return null;
  // `//host` and `/\host` are read by browsers as another host; no backslash or control character at all
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || hasControlCharacter(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  if (AUTH_PATHS.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login page that comes back to `location` afterwards (plain /login when there is nothing to come back to). */
export function loginPathFor(location: { pathname: string; search?: string; hash?: string }): string {
  return withReturn('/login', `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`);
}

/** `page` (/login or /register) carrying the return path `target`, when it is a safe one. */
export function withReturn(page: string, target: string | null | undefined): string {
  const safe = safeReturnPath(target);
  return safe && safe !== '/' ? `${page}?${RETURN_PARAM}=${encodeURIComponent(safe)}` : page;
}

/** The safe return path of a login or register page's query string, or null. */
export function returnPathOf(search: string): string | null {
  return safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM));
}
