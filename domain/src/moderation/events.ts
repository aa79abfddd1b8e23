import { z } from 'zod';
import type { DomainEvent } from '../shared/decider';
import { REPORT_STATUSES } from './rules';

/**
 * Moderation and administrators' operations. Streams:
 * - `report-<id>`: ReportStatusChanged (the report was filed as VideoReported on
 *   `report-claim-<videoId>-<reporterId>`; its moderation life goes on here)
 * - `admin-operations`: ProjectionsRebuildRequested
 * The acting administrator is each event's `metadata.userId`.
 */
const id = z.string().min(1);
const status = z.enum(REPORT_STATUSES);
const response = z.string().min(1).nullable();

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

export type ReportStatusChanged = DomainEvent<'ReportStatusChanged', z.infer<typeof ReportStatusChangedSchema>>;
export type ProjectionsRebuildRequested = DomainEvent<
  'ProjectionsRebuildRequested',
  z.infer<typeof ProjectionsRebuildRequestedSchema>
>;
export type ModerationEvent = ReportStatusChanged | ProjectionsRebuildRequested;

export const moderationEventSchemas = {
  ReportStatusChanged: ReportStatusChangedSchema,
  ProjectionsRebuildRequested: ProjectionsRebuildRequestedSchema,
} as const;
