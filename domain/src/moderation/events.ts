import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';
import { REPORT_STATUSES } from './rules';
import { APPEAL_OUTCOMES, RESTRICTION_SCOPES } from './appeal-rules';

/**
 * Moderation and administrators' operations. Streams:
 * - `report-claim-<videoId>-<reporterId>`: VideoReported, at most one open report per member and
 *   video (it carries the report's numeric id)
 * - `report-<id>`: ReportStatusChanged (the report's moderation life after VideoReported)
 * - `admin-operations`: ProjectionsRebuildRequested
 * - `video-<id>`: the decisions on a video (VideoVisibilityChanged / VideoDeleted with a decisionNo),
 *   DecisionAppealed and AppealAnswered on them (the appeal lives with what it contests, so a
 *   reversal and the visibility it restores are one append)
 * - `restrictions-<userId>`: MemberRestricted, MemberRestrictionLifted, and the appeals on them
 * The acting administrator is each event's `metadata.userId`.
 */
const id = z.string().min(1);
const status = z.enum(REPORT_STATUSES);
const response = z.string().min(1).nullable();

export const VideoReportedSchema = z.object({
  reportId: z.number().int().positive(),
  videoId: z.number().int().positive(),
  reporterId: id,
  /** 'Non spécifié' when the member gave none */
  reason: z.string().min(1),
});
export const ReportStatusChangedSchema = z.object({
  reportId: z.number().int().positive(),
  videoId: z.number().int().positive(),
  reporterId: id,
  /** the reported video's owner */
  authorId: id,
  status,
  /** the sanction message sent to the author, null when none */
  adminResponse: response,
  /** status and response before this change: who is notified follows from the event alone */
  previousStatus: status,
  previousAdminResponse: response,
});
export const ProjectionsRebuildRequestedSchema = z.object({ requestedBy: id });

/** who a decision is about and where it is: the video's author (videoId) or the restricted member (videoId null) */
const decisionRef = {
  /** `video-<videoId>-<n>` or `restriction-<userId>-<n>` */
  decisionId: id,
  subjectId: id,
  videoId: z.number().int().positive().nullable(),
  decisionNo: z.number().int().positive(),
};
/** The member contests a decision about them, with their own text (the actor is the member). */
export const DecisionAppealedSchema = z.object({ ...decisionRef, text: z.string().min(1), at: z.string() });
/** An administrator answered an appeal: the decision kept or reversed, with their answer to the member. */
export const AppealAnsweredSchema = z.object({
  ...decisionRef,
  outcome: z.enum(APPEAL_OUTCOMES),
  answer: z.string().min(1),
  at: z.string(),
});
/** An administrator restricts a member from uploading, commenting and/or writing private messages. */
export const MemberRestrictedSchema = z.object({
  userId: id,
  restrictionNo: z.number().int().positive(),
  scopes: z.array(z.enum(RESTRICTION_SCOPES)).min(1),
  /** ISO time it ends by itself; null: until lifted */
  endsAt: z.string().nullable(),
  reason: z.string().min(1),
  at: z.string(),
});
/** A restriction lifted before its end: by an administrator, or by reversing it on appeal. */
export const MemberRestrictionLiftedSchema = z.object({
  userId: id,
  restrictionNo: z.number().int().positive(),
  via: z.enum(['admin', 'appeal']),
  at: z.string(),
});

export type VideoReported = DomainEvent<'VideoReported', z.infer<typeof VideoReportedSchema>>;
export type ReportStatusChanged = DomainEvent<'ReportStatusChanged', z.infer<typeof ReportStatusChangedSchema>>;
export type ProjectionsRebuildRequested = DomainEvent<
  'ProjectionsRebuildRequested',
  z.infer<typeof ProjectionsRebuildRequestedSchema>
>;
export type DecisionAppealed = DomainEvent<'DecisionAppealed', z.infer<typeof DecisionAppealedSchema>>;
export type AppealAnswered = DomainEvent<'AppealAnswered', z.infer<typeof AppealAnsweredSchema>>;
export type MemberRestricted = DomainEvent<'MemberRestricted', z.infer<typeof MemberRestrictedSchema>>;
export type MemberRestrictionLifted = DomainEvent<
  'MemberRestrictionLifted',
  z.infer<typeof MemberRestrictionLiftedSchema>
>;
export type AppealEvent = DecisionAppealed | AppealAnswered;
export type RestrictionEvent = MemberRestricted | MemberRestrictionLifted | AppealEvent;
export type ModerationEvent =
  | VideoReported
  | ReportStatusChanged
  | ProjectionsRebuildRequested
  | AppealEvent
  | MemberRestricted
  | MemberRestrictionLifted;

export const moderationEventSchemas = {
  VideoReported: VideoReportedSchema,
  ReportStatusChanged: ReportStatusChangedSchema,
  ProjectionsRebuildRequested: ProjectionsRebuildRequestedSchema,
  DecisionAppealed: DecisionAppealedSchema,
  AppealAnswered: AppealAnsweredSchema,
  MemberRestricted: MemberRestrictedSchema,
  MemberRestrictionLifted: MemberRestrictionLiftedSchema,
} as const;
