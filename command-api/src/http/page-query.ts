import { z } from 'zod';

export const PAGE_MESSAGES = { badPage: 'Pagination invalide.' } as const;

/** A positive whole number in a query string (`fallback` when absent, cut to `max` when given). */
export const pageNumber = (fallback: number, max?: number) =>
  z
    .string({ invalid_type_error: PAGE_MESSAGES.badPage })
    .regex(/^\d{1,6}$/, PAGE_MESSAGES.badPage)
    .optional()
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .refine((n) => n >= 1, PAGE_MESSAGES.badPage)
    .transform((n) => (max ? Math.min(n, max) : n));

/**
 * `?page=` (1-based, refused beyond `maxPage` when given: each page costs the ones before it) and
 * `?limit=` (`defaultLimit` when absent, cut to `maxLimit`), shared by every paged list.
 */
export const pageQuery = (options: { defaultLimit: number; maxLimit: number; maxPage?: number }) =>
  z.object({
    page: pageNumber(1).refine((n) => options.maxPage === undefined || n <= options.maxPage, PAGE_MESSAGES.badPage),
    limit: pageNumber(options.defaultLimit, options.maxLimit),
  });
