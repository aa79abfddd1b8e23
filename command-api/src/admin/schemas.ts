import { z } from 'zod';
import {
  GIFT_ADMIN_MESSAGES,
  MODERATION_MESSAGES,
  emailField,
  adminResponseField,
  reportStatusField,
  visibilityField,
} from '@evo/domain';
import { ADMIN_PAGE } from '@evo/projections';
import { pageNumber, pageQuery } from '../http/page-query';

export const ADMIN_ROUTE_MESSAGES = {
  badPage: 'Pagination invalide.',
  badSearch: 'Recherche invalide.',
  badDate: 'Date invalide.',
  granted: (email: string) => `✅ ${email} est maintenant administrateur.`,
  alreadyAdmin: (email: string) => `${email} était déjà administrateur.`,
  revoked: (email: string) => `✅ ${email} n'est plus administrateur.`,
} as const;
const M = ADMIN_ROUTE_MESSAGES;

/** A positive integer id in a path. */
const idParam = (message: string) =>
  z.object({
    id: z
      .string({ required_error: message, invalid_type_error: message })
      .regex(/^\d{1,15}$/, message)
      .transform(Number)
      .refine((n) => n > 0, message),
  });
export const ReportIdParam = idParam(MODERATION_MESSAGES.badReportId);
export const GiftIdParam = idParam(GIFT_ADMIN_MESSAGES.badGiftId);

export const ReportBody = z.object({ status: reportStatusField, admin_response: adminResponseField });
export const VisibilityBody = z.object({ status: visibilityField });
export const EmailBody = z.object({ email: emailField });

/** `?page=` (1-based) and `?limit=` (20 by default, at most 100) */
export const PageQuery = pageQuery(ADMIN_PAGE);
/** `?q=` searched in emails and pseudos */
export const UsersQuery = PageQuery.extend({
  q: z.string({ invalid_type_error: M.badSearch }).max(100, M.badSearch).optional().default(''),
});

/** `?asOf=<ISO date>`: the figures as they were then */
export const StatsQuery = z.object({
  asOf: z
    .string({ invalid_type_error: M.badDate })
    .trim()
    .refine((v) => v !== '' && !Number.isNaN(Date.parse(v)), M.badDate)
    .transform((v) => new Date(v))
    .optional(),
});

/** `?status=` and `?limit=` of the reports list */
export const ReportsQuery = z.object({
  status: reportStatusField.optional(),
  limit: pageNumber(500),
});
