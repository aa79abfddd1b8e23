import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';

/**
 * "Mes données" (issue 31): archives of everything EVO holds about a member, built from the log by
 * a job. Stream `data-export-<memberId>`. The actor (the member, or the administrator who produced
 * it for a request received by post) is `requestedBy`, also each event's `metadata.userId`.
 */
const id = z.string().min(1);

export const DataExportRequestedSchema = z.object({
  exportId: id,
  memberId: id,
  /** the member's own id, or the administrator's */
  requestedBy: id,
  /** produced by an administrator: downloaded from the back-office, never by the member's link */
  byAdmin: z.boolean(),
  at: z.string(),
});
/** The job's progress: `done` of `total` steps (the log read, each media file, the archive stored). */
export const DataExportProgressedSchema = z.object({
  exportId: id,
  memberId: id,
  done: z.number().int().nonnegative(),
  total: z.number().int().positive(),
  at: z.string(),
});
export const DataExportReadySchema = z.object({
  exportId: id,
  memberId: id,
  /** the archive's name in the file store's `exports` folder */
  fileName: z.string().min(1),
  sizeBytes: z.number().int().nonnegative(),
  /** an administrator's archive: its member is not notified (see DataExportRequested) */
  byAdmin: z.boolean(),
  readyAt: z.string(),
  /** after this the link is refused and the file removed */
  expiresAt: z.string(),
});
export const DataExportFailedSchema = z.object({
  exportId: id,
  memberId: id,
  /** French, shown to whoever asked */
  reason: z.string().min(1),
});

export type DataExportRequested = DomainEvent<'DataExportRequested', z.infer<typeof DataExportRequestedSchema>>;
export type DataExportProgressed = DomainEvent<'DataExportProgressed', z.infer<typeof DataExportProgressedSchema>>;
export type DataExportReady = DomainEvent<'DataExportReady', z.infer<typeof DataExportReadySchema>>;
export type DataExportFailed = DomainEvent<'DataExportFailed', z.infer<typeof DataExportFailedSchema>>;
export type DataExportEvent = DataExportRequested | DataExportProgressed | DataExportReady | DataExportFailed;

export const dataExportEventSchemas = {
  DataExportRequested: DataExportRequestedSchema,
  DataExportProgressed: DataExportProgressedSchema,
  DataExportReady: DataExportReadySchema,
  DataExportFailed: DataExportFailedSchema,
} as const;
