import { z } from 'zod';

/**
 * What a search compares: the text without accents (any combining mark), lower-cased, its runs of
 * white space made one space and trimmed. "Élodie", "ELODIE" and "elodie" have one key.
 */
export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

export const SEARCH_LIMITS = {
  /** shorter searches answer nothing (every member would match one letter) */
  queryMin: 2,
  queryMax: 100,
  /** members and videos answered, each */
  results: 20,
} as const;

export const SEARCH_MESSAGES = {
  queryTooLong: `La recherche ne doit pas dépasser ${SEARCH_LIMITS.queryMax} caractères.`,
} as const;

/** `?q=`: the text searched (absent or short: an empty answer, not an error) */
export const SearchQuery = z.object({
  q: z
    .string({ invalid_type_error: SEARCH_MESSAGES.queryTooLong })
    .max(SEARCH_LIMITS.queryMax, SEARCH_MESSAGES.queryTooLong)
    .default(''),
});
