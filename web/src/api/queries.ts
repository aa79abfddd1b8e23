import { QueryClient, queryOptions, useQuery, type QueryKey } from '@tanstack/react-query';
import type { AnswerOf, GetRoute, PathParams } from '@evo/contracts';
import { api } from './http';
import { decode } from './decode';

/**
 * The web app's server state: one query cache (TanStack Query), keyed by the contract's GET routes.
 * A route (`contracts`, e.g. `coinRoutes.wallet`: '/api/coins/balance/:email' and its answer's
 * schema) gives the URL, the decoding and the cache key: `[path, params, search?]`. Invalidating
 * `[path]` reaches every member's and page's answer of that route, `[path, params]` one of them.
 *
 *   const wallet = useRouteQuery(coinRoutes.wallet, email ? { email } : null);
 *   queryClient.invalidateQueries({ queryKey: routeKey(coinRoutes.wallet) });
 */

/** The query string of a call (`?page=2&q=…`); undefined, null and '' values are left out. */
export type Search = Record<string, string | number | boolean | null | undefined>;

type Params<R extends GetRoute> = PathParams<R['path']>;

function definedSearch(search: Search | undefined): Record<string, string> | undefined {
  if (!search) return undefined;
  const kept = Object.entries(search).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return kept.length === 0 ? undefined : Object.fromEntries(kept.map(([k, v]) => [k, String(v)]));
}

/** The cache key of a route: every answer of it (no params), one call's (params, search). */
export function routeKey<R extends GetRoute>(route: R, params?: Params<R>, search?: Search): QueryKey {
  if (params === undefined) return [route.path];
  const query = definedSearch(search);
  return query ? [route.path, params, query] : [route.path, params];
}

/** The URL of a call: path parameters encoded in place, then the query string. */
export function routeUrl<R extends GetRoute>(route: R, params: Params<R>, search?: Search): string {
  const values = params as Record<string, string | number>;
  const path = route.path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${route.path}: paramètre ${name} manquant`);
    return encodeURIComponent(String(value));
  });
  const query = definedSearch(search);
  return query ? `${path}?${new URLSearchParams(query).toString()}` : path;
}

/** GETs a route and decodes its answer with the contract's schema (`InvalidAnswerError` otherwise). */
export async function fetchRoute<R extends GetRoute>(
  route: R,
  params: Params<R>,
  search?: Search,
  signal?: AbortSignal,
): Promise<AnswerOf<R>> {
  return decode(route.answer, await api.get(routeUrl(route, params, search), { signal })) as AnswerOf<R>;
}

/** Key and fetcher of a call, for `useQuery`, `prefetchQuery`, `fetchQuery`… */
export function routeQuery<R extends GetRoute>(route: R, params: Params<R>, search?: Search) {
  return queryOptions({
    queryKey: routeKey(route, params, search),
    queryFn: ({ signal }) => fetchRoute(route, params, search, signal),
  });
}

export interface RouteQueryOptions {
  search?: Search;
  /** false: not asked (yet), e.g. a screen that is not for this member */
  enabled?: boolean;
}

/**
 * The answer of a route, from the cache (asked again when a screen that shows it mounts), or nothing
 * while `params` is null (e.g. nobody is logged in).
 */
export function useRouteQuery<R extends GetRoute>(route: R, params: Params<R> | null, options: RouteQueryOptions = {}) {
  const wanted = params !== null && options.enabled !== false;
  return useQuery({
    queryKey: params === null ? [route.path, null] : routeKey(route, params, options.search),
    queryFn: ({ signal }) => fetchRoute(route, params as Params<R>, options.search, signal),
    enabled: wanted,
  });
}

/**
 * Edits what the cache holds for a route (every page and query string of these params), e.g. a
 * gift claimed or a push applied. An answer not loaded yet is left alone (its GET will tell).
 */
export function updateRoute<R extends GetRoute>(
  client: QueryClient,
  route: R,
  params: Params<R> | undefined,
  update: (current: AnswerOf<R>) => AnswerOf<R>,
): void {
  client.setQueriesData<AnswerOf<R>>({ queryKey: routeKey(route, params) }, (current) =>
    current === undefined ? current : update(current),
  );
}

/** Asks again, keeping what is shown meanwhile, every answer of a route (or of these params) on screen. */
export function refreshRoute<R extends GetRoute>(client: QueryClient, route: R, params?: Params<R>): Promise<void> {
  return client.invalidateQueries({ queryKey: routeKey(route, params) });
}

/**
 * The app's one cache. Like the loads it replaces: no automatic retry (a failure is said at once,
 * with "Réessayer"), asked again when a screen showing it mounts, not on window focus (pushes keep
 * the screens live), and whatever `navigator.onLine` says (a failed call says 'Network Error').
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
