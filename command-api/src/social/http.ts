import type { Request } from 'express';
import { z } from 'zod';
import { normalize } from '@evo/domain';
import { PAGE, type Page, type SocialQueries, type UserDoc } from '@evo/projections';
import { HttpError } from '../http/errors';
import { currentUserId } from '../http/session';
import { pageQuery } from '../http/page-query';
import { parseInput } from '../http/request';

export const SOCIAL_ROUTE_MESSAGES = {
  forbidden: 'Action non autorisée.',
  userNotFound: 'Utilisateur introuvable.',
  sessionExpired: 'Session expirée, reconnectez-vous.',
  badVideoId: 'Identifiant de vidéo invalide.',
  badPage: 'Pagination invalide.',
  badEmail: 'Email invalide.',
  targetEmailRequired: "L'email de l'utilisateur à suivre est obligatoire.",
  targetPseudoRequired: "Le pseudo de l'utilisateur est obligatoire.",
  followed: (pseudo: string) => `✅ Tu suis maintenant ${pseudo}`,
  unfollowed: (pseudo: string) => `✅ Tu ne suis plus ${pseudo}`,
  videoUnavailable: 'Vidéo indisponible.',
  videoNotFound: 'Vidéo introuvable.',
  deleted: '✅ Vidéo supprimée',
  viewed: 'Vue enregistrée.',
  favorited: '⭐ Ajouté aux favoris',
  unfavorited: 'Retiré des favoris',
  reported: '🚩 Signalement envoyé',
} as const;

const M = SOCIAL_ROUTE_MESSAGES;

/** A positive integer id, from a path segment or a JSON number / numeric string. */
export const videoIdField = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,16}$/.test(v.trim()) ? Number(v.trim()) : v),
  z
    .number({ required_error: M.badVideoId, invalid_type_error: M.badVideoId })
    .int(M.badVideoId)
    .positive(M.badVideoId)
    .max(Number.MAX_SAFE_INTEGER, M.badVideoId),
);
export const VideoIdParam = z.object({ id: videoIdField });

/** An email (or handle) in a path or body: a bounded string; unknown values are 404, not 400. */
export const emailValue = (message: string = M.badEmail) =>
  z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message).max(254, message);

/**
 * An email the client sends to say who acts ("followerEmail", "userEmail"): optional, since
 * the actor is always the session user; when given it must be theirs.
 */
export const actorEmailField = z
  .string({ invalid_type_error: M.badEmail })
  .max(254, M.badEmail)
  .nullish()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));

/** deeper pages are refused: each one costs the pages before it */
export const MAX_PAGE = 200;

/** `?page=` (1-based, at most 200) and `?limit=` (default 20, at most 50) */
export const PageQuery = pageQuery({ ...PAGE, maxPage: MAX_PAGE });
export const pageOf = (req: Request): Page => {
  const { page, limit } = parseInput(PageQuery, req.query);
  return { page, limit };
};

/** The session user as the read models know them. */
export async function sessionMember(req: Request, q: SocialQueries): Promise<UserDoc> {
  const me = await q.userById(currentUserId(req));
  if (!me) throw new HttpError(401, M.sessionExpired);
  return me;
}

/** A body email saying who acts must be the session user's (compared case-insensitively). */
export function assertActor(claimed: string | undefined, sessionEmail: string): void {
  if (claimed !== undefined && normalize(claimed) !== normalize(sessionEmail)) throw new HttpError(403, M.forbidden);
}

/**
 * The member named by an email in a path, which must be the session user's unless they are an
 * administrator (these answers reveal who follows whom).
 */
export async function selfOrAdmin(
  req: Request,
  q: SocialQueries,
  email: string,
): Promise<{ me: UserDoc; subject: UserDoc }> {
  const me = await sessionMember(req, q);
  if (normalize(email) === me.email_lc) return { me, subject: me };
  if (!me.is_admin) throw new HttpError(403, M.forbidden);
  const subject = await q.userByEmail(email);
  if (!subject) throw new HttpError(404, M.userNotFound);
  return { me, subject };
}
