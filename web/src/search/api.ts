import { SearchAnswer } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';

/** GET /api/search?q=: members by pseudo, videos by title (accents and case aside). */
export async function searchEverything(query: string, signal?: AbortSignal): Promise<SearchAnswer> {
  return decode(SearchAnswer, await api.get(`/api/search?q=${encodeURIComponent(query)}`, { signal }));
}

/** the results page of a query */
export const searchPath = (query: string) => `/recherche?q=${encodeURIComponent(query.trim())}`;
