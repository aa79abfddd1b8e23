import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';
import { REPORT_STATUSES } from './rules';

/**
 * Moderation and administrators' operations. Streams:
 * - `report-claim-<videoId>-<reporterId>`: VideoReported, at most one open report per member and
 *   video (it carries the report's numeric id)
 * - `report-<id>`: ReportStatusChanged (the report's moderation life after VideoReported)
 * - `admin-operations`: ProjectionsRebuildRequested
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

export type VideoReported = DomainEvent<'VideoReported', z.infer<typeof VideoReportedSchema>>;
export type ReportStatusChanged = DomainEvent<'ReportStatusChanged', z.infer<typeof ReportStatusChangedSchema>>;
export type ProjectionsRebuildRequested = DomainEvent<
  'ProjectionsRebuildRequested',
  z.infer<typeof ProjectionsRebuildRequestedSchema>
>;
export type ModerationEvent = VideoReported | ReportStatusChanged | ProjectionsRebuildRequested;

export const moderationEventSchemas = {
  VideoReported: VideoReportedSchema,
  ReportStatusChanged: ReportStatusChangedSchema,
  ProjectionsRebuildRequested: ProjectionsRebuildRequestedSchema,
} as const;
