import type { Request } from 'express';
import { z } from 'zod';
import { PAGE, type Page } from '@evo/projections';
import { ACTOR_MESSAGES } from '../http/actor';
import { pageQuery } from '../http/page-query';
import { parseInput } from '../http/request';

export const SOCIAL_ROUTE_MESSAGES = {
  /** a body email naming someone else as who acts; a member asking whom another member follows */
  forbidden: ACTOR_MESSAGES.actionForbidden,
  userNotFound: ACTOR_MESSAGES.userNotFound,
  sessionExpired: ACTOR_MESSAGES.sessionExpired,
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
