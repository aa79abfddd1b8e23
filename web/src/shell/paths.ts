import type { CurrentUser } from '../identity/session';

const userPath = (pseudo: string) => `/user/${encodeURIComponent(pseudo)}`;

/** Top bar "Mon profil": /user/{pseudo}, or the admin area when no pseudo is stored (the product screens). */
export function topBarProfilePath(user: CurrentUser | null): string {
  return user?.pseudo ? userPath(user.pseudo) : '/admin';
}

/** Bottom bar "Profil" and the home "my profile" button: /user/{pseudo}, or /profile. */
export function profilePath(user: CurrentUser | null): string {
  return user?.pseudo ? userPath(user.pseudo) : '/profile';
}

export function isAdminPath(pathname: string): boolean {
  return pathname.startsWith('/admin');
}
