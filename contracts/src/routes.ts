/**
 * Every path the client-side router answers (the product screens, "Route table"), without React: the server
 * reads it too, to answer an unknown path with 404 (and the same French "Page introuvable" page).
 * `web/src/shell/routes.tsx` must route exactly these (web/src/shell/routePaths.test.ts checks it).
 */
/**
 * The recorder's page. MediaPipe's Face Mesh (its face filters) builds functions from strings (its
 * WebAssembly glue, embind, calls `new Function`): only this page's document is served with a
 * policy allowing eval ('unsafe-eval'), and links to it load a new document (a page opened
 * elsewhere in the app keeps the policy it was served with).
 */
export const RECORDER_PAGE = '/create';

export const APP_ROUTE_PATHS = [
  '/login',
  '/register',
  '/mot-de-passe-oublie',
  '/nouveau-mot-de-passe',
  '/',
  '/feed',
  '/users-with-videos',
  '/upload',
  '/upload/video',
  '/live',
  '/create',
  '/video/:id',
  '/test-video',
  '/test',
  '/user/:pseudo',
  '/profile',
  '/friends',
  '/friends-list',
  '/notifications',
  '/recherche',
  '/profil/modifier',
  '/moderation',
  '/mes-donnees',
  '/messages',
  '/messages/:pseudo',
  '/conversation/:id',
  '/send-message/:pseudo',
  '/coffre',
  '/coins/balance',
  '/coins/transactions',
  '/coins/conversion',
  '/coins/recu/:id',
  '/vault/withdraw',
  '/vault/shop',
  '/packs',
  '/cadeaux-recues',
  '/envoyer-cadeau',
  '/historique',
  '/cadeaux-coins',
  '/gift',
  '/catalogue',
  '/coins-received',
  '/coins/received',
  '/coins/retrait',
  '/analytics',
  '/analytics/video/:id',
  '/admin',
  '/admin/reports',
  '/admin/transactions',
  '/admin/transactions/:email',
  '/admin/gifts',
  '/admin/users',
  '/admin/tools',
  '/admin/audit',
  '/admin/appeals',
  '/admin/restrictions',
  '/admin/stats',
  '/admin/stats/general',
  '/admin/stats/users',
  '/admin/stats/videos',
  '/admin/stats/messages',
  '/admin/stats/gifts',
  '/admin/stats/coins',
  '/admin/stats/advanced',
] as const;

const segments = (path: string) => path.split('/').filter((s) => s !== '');

const PATTERNS = APP_ROUTE_PATHS.map(segments);

/**
 * Whether the client-side router shows a screen (not "Page introuvable") at `pathname`, matching as
 * React Router does: case-insensitive, a trailing slash ignored, `:param` one non-empty segment.
 */
export function isAppRoute(pathname: string): boolean {
  if (!pathname.startsWith('/') || pathname.includes('//')) return false;
  const parts = segments(pathname.toLowerCase());
  return PATTERNS.some(
    (p) => p.length === parts.length && p.every((seg, i) => seg.startsWith(':') || seg === parts[i]),
  );
}
