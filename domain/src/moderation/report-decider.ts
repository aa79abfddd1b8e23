import type { Decider } from '../shared/decider';
import { invalid, forbidden, notFound } from '../shared/errors';
import type { ReportStatusChanged } from './events';
import { MODERATION_MESSAGES, isReportStatus, isSanctionMessage, type ReportStatus } from './rules';

/** What the handler found on the streams about a report: who filed it, on which video of whom. */
export interface ReportFacts {
  reportId: number;
  videoId: number;
  reporterId: string;
  authorId: string;
}

export type ReportModerationCommand = {
  type: 'ChangeReportStatus';
  /** from `report-claim-<videoId>-<reporterId>` (VideoReported) and `video-<id>`; null when not found */
  report: ReportFacts | null;
  status: string;
  /** a sanction message, null to clear it, undefined to keep the current one */
  adminResponse: string | null | undefined;
  /** from the requester's user stream */
  requesterIsAdmin: boolean;
};

export type ReportModerationState = { status: ReportStatus; adminResponse: string | null };

/**
 * A report's moderation (`report-<id>`): an administrator sets its status freely among the three
 * (the product states and transitions) and may send the author one of the sanction messages. Saving what is already
 * there appends nothing.
 */
export const reportDecider: Decider<ReportModerationCommand, ReportStatusChanged, ReportModerationState> = {
  initialState: () => ({ status: 'en_attente', adminResponse: null }),
  evolve: (_state, event) => ({ status: event.data.status, adminResponse: event.data.adminResponse }),
  decide(command, state) {
    if (!command.requesterIsAdmin) throw forbidden(MODERATION_MESSAGES.adminOnly);
    const report = command.report;
    if (!report) throw notFound(MODERATION_MESSAGES.reportNotFound);
    if (!isReportStatus(command.status)) throw invalid(MODERATION_MESSAGES.badStatus);
    const adminResponse = command.adminResponse === undefined ? state.adminResponse : command.adminResponse;
    if (adminResponse !== null && !isSanctionMessage(adminResponse)) throw invalid(MODERATION_MESSAGES.unknownSanction);
    if (command.status === state.status && adminResponse === state.adminResponse) return [];
    return [
      {
        type: 'ReportStatusChanged',
        data: {
          ...report,
          status: command.status,
          adminResponse,
          previousStatus: state.status,
          previousAdminResponse: state.adminResponse,
        },
      },
    ];
  },
};

/** Is the report closed once these events are folded? (a closed report frees its claim) */
export const isReportClosed = (state: ReportModerationState) => state.status === 'ferme';
