/**
 * The current user as kept in localStorage (the product entities, "Current user").
 *
 * Keys: `currentUser` (JSON {email, pseudo, role, is_admin, profile_picture},
 * possibly wrapped as {user: {...}} by older clients), `userEmail`, `userPseudo`.
 * A tiny external store so React (useSyncExternalStore) and non-React code
 * (the HTTP client's 401 handling) share one source.
 */

export interface CurrentUser {
  email: string;
  pseudo: string;
  role: string | null;
  is_admin: boolean | number | null;
  profile_picture: string | null;
}

export const STORAGE_KEYS = {
  currentUser: 'currentUser',
  userEmail: 'userEmail',
  userPseudo: 'userPseudo',
} as const;

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cachedUser: CurrentUser | null = null;
let writeCount = 0;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const asString = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Keeps only the known fields of a user-like object; null when there is no email. */
export function normalizeUser(value: unknown): CurrentUser | null {
  if (!value || typeof value !== 'object') return null;
  const wrapped = (value as { user?: unknown }).user;
  const source = (wrapped && typeof wrapped === 'object' ? wrapped : value) as Record<string, unknown>;
  const email = asString(source.email)?.trim();
  if (!email) return null;
  const isAdmin = source.is_admin;
  return {
    email,
    pseudo: asString(source.pseudo)?.trim() ?? '',
    role: asString(source.role),
    is_admin: typeof isAdmin === 'boolean' || typeof isAdmin === 'number' ? isAdmin : null,
    profile_picture: asString(source.profile_picture),
  };
}

export function readStoredUser(): CurrentUser | null {
  let raw: string | null = null;
  try {
    raw = storage()?.getItem(STORAGE_KEYS.currentUser) ?? null;
  } catch {
    raw = null;
  }
  if (raw === cachedRaw) return cachedUser;
  cachedRaw = raw;
  try {
    cachedUser = raw ? normalizeUser(JSON.parse(raw)) : null;
  } catch {
    cachedUser = null;
  }
  return cachedUser;
}

function notify() {
  writeCount += 1;
  for (const listener of listeners) listener();
}

export function storeUser(user: CurrentUser): void {
  const store = storage();
  try {
    store?.setItem(STORAGE_KEYS.currentUser, JSON.stringify(user));
    store?.setItem(STORAGE_KEYS.userEmail, user.email);
    store?.setItem(STORAGE_KEYS.userPseudo, user.pseudo);
  } catch {
    // storage full or disabled: the session cookie still works for this page
  }
  notify();
}

export function clearStoredUser(): void {
  const store = storage();
  try {
    for (const key of Object.values(STORAGE_KEYS)) store?.removeItem(key);
  } catch {
    // ignore
  }
  notify();
}

/** Number of local writes so far: lets an async check detect a newer login/logout. */
export function storeVersion(): number {
  return writeCount;
}

export function subscribeStoredUser(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === STORAGE_KEYS.currentUser) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** the product roles and permissions: admin address, or role admin, or is_admin true or 1. */
export function isAdmin(user: CurrentUser | null, adminEmail?: string | null): boolean {
  if (!user) return false;
  if (adminEmail && user.email.trim().toLowerCase() === adminEmail.trim().toLowerCase()) return true;
  return user.role === 'admin' || user.is_admin === true || user.is_admin === 1;
}

export function profilePictureUrl(user: Pick<CurrentUser, 'profile_picture'> | null): string {
  const file = user?.profile_picture?.trim() || 'default.png';
  return `/uploads/profile_pics/${encodeURIComponent(file)}`;
}
