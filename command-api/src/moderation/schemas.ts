import { z } from 'zod';
import { MODERATION_MESSAGES, adminResponseField, reportReasonField, reportStatusField } from '@evo/domain';
import { pageNumber } from '../http/page-query';
import { idParam } from '../http/request';

/** A member's report: `{ reason }`, optional */
export const ReportReasonBody = z.object({ reason: reportReasonField });

/** A report id in a path: a positive integer. */
export const ReportIdParam = idParam(MODERATION_MESSAGES.badReportId);

/** An administrator's decision: `{ status, admin_response }` */
export const ReportDecisionBody = z.object({ status: reportStatusField, admin_response: adminResponseField });

/** `?status=` and `?limit=` of the reports list */
export const ReportsQuery = z.object({
  status: reportStatusField.optional(),
  limit: pageNumber(500),
});
