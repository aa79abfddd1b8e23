import { z } from 'zod';
import { getRoute } from '../api-route';

/** A member found by the search (a link to /user/{pseudo}). */
export const SearchMember = z.object({ pseudo: z.string(), profile_picture: z.string(), bio: z.string() });
export type SearchMember = z.infer<typeof SearchMember>;

/** A video found by the search (a link to /video/{id}): public, or the searcher's own. */
export const SearchVideo = z.object({
  id: z.number(),
  title: z.string(),
  user_pseudo: z.string(),
  poster: z.string().nullable(),
  /** publique, or masquée for the searcher's own hidden video */
  status: z.string(),
});
export type SearchVideo = z.infer<typeof SearchVideo>;

/** GET /api/search?q=: members by pseudo and videos by title, accents and case aside. */
export const SearchAnswer = z.object({
  query: z.string(),
  members: z.array(SearchMember),
  videos: z.array(SearchVideo),
});
export type SearchAnswer = z.infer<typeof SearchAnswer>;

/** `?q=` */
export const searchRoutes = { search: getRoute('/api/search', SearchAnswer) };
