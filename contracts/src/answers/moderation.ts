import { z } from 'zod';
import { getRoute } from '../api-route';

/**
 * Moderation decisions, their appeals and members' restrictions (issue 32): what a member is told
 * (GET /api/moderation/mine) and what the back-office lists (GET /api/admin/appeals,
 * GET /api/admin/restrictions).
 */

export const RESTRICTION_SCOPE_NAMES = ['upload', 'comment', 'message'] as const;
export type RestrictionScopeName = (typeof RESTRICTION_SCOPE_NAMES)[number];

export const AppealView = z.object({
  text: z.string(),
  at: z.string(),
  /** en_attente, then maintenue or annulée */
  status: z.enum(['en_attente', 'maintenue', 'annulée']),
  answer: z.string().nullable(),
  answered_at: z.string().nullable(),
});
export type AppealView = z.infer<typeof AppealView>;

/** One decision about a member: a video hidden or deleted, or a restriction. */
export const DecisionView = z.object({
  /** `video-<videoId>-<n>` or `restriction-<userId>-<n>` */
  id: z.string(),
  kind: z.enum(['video', 'restriction']),
  video_id: z.number().nullable(),
  video_title: z.string().nullable(),
  /** a video decision: masquée or supprimée */
  action: z.string().nullable(),
  /** a restriction: what it takes away */
  scopes: z.array(z.enum(RESTRICTION_SCOPE_NAMES)),
  /** a restriction's end, null: until lifted */
  ends_at: z.string().nullable(),
  reason: z.string(),
  decided_at: z.string(),
  /** still what holds (a restriction: not lifted nor ended; a video decision: not replaced since) */
  in_force: z.boolean(),
  /** the last moment it can be contested */
  appealable_until: z.string(),
  /** "Contester la décision" is offered: in force, not appealed yet, within the window */
  can_appeal: z.boolean(),
  appeal: AppealView.nullable(),
});
export type DecisionView = z.infer<typeof DecisionView>;

/** A restriction holding now, as its member sees it. */
export const ActiveRestrictionView = z.object({
  id: z.string(),
  scopes: z.array(z.enum(RESTRICTION_SCOPE_NAMES)),
  ends_at: z.string().nullable(),
  reason: z.string(),
});
export type ActiveRestrictionView = z.infer<typeof ActiveRestrictionView>;

/** GET /api/moderation/mine */
export const MyModerationAnswer = z.object({
  decisions: z.array(DecisionView),
  restrictions: z.array(ActiveRestrictionView),
  /** what the member may not do now, with the 403 the server would answer (the screens show it before a try) */
  blocked: z.object({ upload: z.string().optional(), comment: z.string().optional(), message: z.string().optional() }),
});
export type MyModerationAnswer = z.infer<typeof MyModerationAnswer>;

/** A decision with who it is about and who took it, for the back-office. */
export const AdminDecisionView = DecisionView.extend({
  subject_id: z.string(),
  subject_pseudo: z.string(),
  subject_email: z.string(),
  decided_by: z.string(),
  answered_by: z.string().nullable(),
});
export type AdminDecisionView = z.infer<typeof AdminDecisionView>;

/** GET /api/admin/appeals: appeals waiting for an answer, oldest first */
export const AppealsQueueAnswer = z.object({ appeals: z.array(AdminDecisionView) });
export type AppealsQueueAnswer = z.infer<typeof AppealsQueueAnswer>;

/** GET /api/admin/restrictions: restrictions holding now, ending soonest first (open-ended last) */
export const ActiveRestrictionsAnswer = z.object({ restrictions: z.array(AdminDecisionView) });
export type ActiveRestrictionsAnswer = z.infer<typeof ActiveRestrictionsAnswer>;

/** POST /api/admin/restrictions → 201 */
export const RestrictionCreatedAnswer = z.object({ message: z.string(), id: z.string() });
export type RestrictionCreatedAnswer = z.infer<typeof RestrictionCreatedAnswer>;

/** The moderation routes the web app reads. */
export const moderationRoutes = {
  mine: getRoute('/api/moderation/mine', MyModerationAnswer),
  appeals: getRoute('/api/admin/appeals', AppealsQueueAnswer),
  restrictions: getRoute('/api/admin/restrictions', ActiveRestrictionsAnswer),
};
