import { z } from 'zod';
import { GIFT_ADMIN_MESSAGES, adminResponseField, emailField, visibilityField } from '@evo/domain';
import { ADMIN_PAGE } from '@evo/projections';
import { pageQuery } from '../http/page-query';
import { idParam } from '../http/request';

export const ADMIN_ROUTE_MESSAGES = {
  badPage: 'Pagination invalide.',
  badSearch: 'Recherche invalide.',
  badDate: 'Date invalide.',
  granted: (email: string) => `✅ ${email} est maintenant administrateur.`,
  alreadyAdmin: (email: string) => `${email} était déjà administrateur.`,
  revoked: (email: string) => `✅ ${email} n'est plus administrateur.`,
  loginUnlocked: (email: string, failures: number) =>
    failures > 0
      ? `✅ Connexion débloquée pour ${email} (${failures} échec${failures > 1 ? 's' : ''} effacé${failures > 1 ? 's' : ''}).`
      : `${email} n'avait aucun échec de connexion récent.`,
} as const;
const M = ADMIN_ROUTE_MESSAGES;

export const GiftIdParam = idParam(GIFT_ADMIN_MESSAGES.badGiftId);

/** `reason`: the sanction message the author gets with a hide or delete (issue 32), one of SPEC's */
export const VisibilityBody = z.object({ status: visibilityField, reason: adminResponseField });
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
