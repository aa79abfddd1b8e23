import { z } from 'zod';
import { getRoute } from '../api-route';

/**
 * "Mes données" (issue 31): a member's archives of their data, and the back-office's for a member.
 * GET /api/me/data-exports, POST /api/me/data-exports, GET /api/admin/users/:id/data-exports.
 */
export const DATA_EXPORT_STATUSES = ['en_preparation', 'prete', 'echouee', 'expiree'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

export const DataExportView = z.object({
  id: z.string(),
  status: z.enum(DATA_EXPORT_STATUSES),
  /** produced by an administrator (for a request received by post): downloaded from the back-office only */
  by_admin: z.boolean(),
  requested_at: z.string(),
  /** 0 to 100 */
  progress: z.number(),
  ready_at: z.string().nullable(),
  /** the link works until then */
  expires_at: z.string().nullable(),
  size_bytes: z.number().nullable(),
  /** French, when it failed */
  error: z.string().nullable(),
  /** where whoever asked downloads it (their session is checked there), null when not available to them */
  download_url: z.string().nullable(),
});
export type DataExportView = z.infer<typeof DataExportView>;

/** GET /api/me/data-exports and GET /api/admin/users/:id/data-exports: newest first */
export const DataExportsAnswer = z.object({
  exports: z.array(DataExportView),
  /** how long a link works, in days (stated on screen) */
  ttl_days: z.number(),
  /** no build in progress: a new archive may be asked for */
  can_request: z.boolean(),
});
export type DataExportsAnswer = z.infer<typeof DataExportsAnswer>;

/** POST /api/me/data-exports and POST /api/admin/users/:id/data-exports: 202 */
export const DataExportRequestAnswer = z.object({ message: z.string(), export: DataExportView });
export type DataExportRequestAnswer = z.infer<typeof DataExportRequestAnswer>;

/** A member's own archives, and an administrator's view of a member's. */
export const dataExportRoutes = {
  mine: getRoute('/api/me/data-exports', DataExportsAnswer),
  member: getRoute('/api/admin/users/:id/data-exports', DataExportsAnswer),
};
