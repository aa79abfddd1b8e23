import type { Decider } from '../shared/decider';
import { conflict, forbidden } from '../shared/errors';
import { requireAvailableVideo, type VideoState } from '../videos/video-decider';
import type { VideoReported } from './events';
import { REPORT_MESSAGES } from './rules';

/**
 * At most one open report per member and video: stream `report-claim-<videoId>-<reporterId>`.
 * The report itself lives on in `report-<id>` (moderation). A report is closed when moderation
 * says so; until the moderation slice exists nothing closes one. Two ways are open to it, and the
 * state is shaped for both:
 * - the handler looks at `report-<openReportId>` and passes `closedReportIds` with the command;
 * - or moderation appends a closing fact to this stream too, and `evolve` marks the report closed
 *   (add its case below; the state already keeps each report's `closed` flag).
 */
export type ReportCommand = {
  type: 'ReportVideo';
  /** from the process's id allocator: `ids.next('report', ctx)` */
  reportId: number;
  videoId: number;
  reporterId: string;
  /** already normalised by `reportReasonField` */
  reason: string;
  video: VideoState;
  /** reports of this claim known to be closed (from their `report-<id>` streams) */
  closedReportIds?: readonly number[];
};

export type ReportClaimState = { reports: ReadonlyArray<{ reportId: number; closed: boolean }> };

/** The report of this member on this video that is still open, if any. */
export function openReportId(state: ReportClaimState, closedReportIds: readonly number[] = []): number | null {
  const last = state.reports.at(-1);
  return last && !last.closed && !closedReportIds.includes(last.reportId) ? last.reportId : null;
}

/**
 * The rules of a report, apart from its id: the video is available, is not the reporter's own (a
 * member reports others' videos; their own they hide or delete) and this member has no open
 * report of it. The handler asks before drawing a report id, so a refused report appends nothing.
 */
export function checkReportable(
  command: Pick<ReportCommand, 'video' | 'closedReportIds' | 'reporterId'>,
  state: ReportClaimState,
): void {
  const video = requireAvailableVideo(command.video);
  if (video.ownerId === command.reporterId) throw forbidden(REPORT_MESSAGES.ownVideo);
  if (openReportId(state, command.closedReportIds) !== null) throw conflict(REPORT_MESSAGES.alreadyReported);
}

export const reportClaimDecider: Decider<ReportCommand, VideoReported, ReportClaimState> = {
  initialState: () => ({ reports: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'VideoReported':
        return { reports: [...state.reports, { reportId: event.data.reportId, closed: false }] };
      default:
        return state;
    }
  },
  decide(command, state) {
    checkReportable(command, state);
    const { reportId, videoId, reporterId, reason } = command;
    return [{ type: 'VideoReported', data: { reportId, videoId, reporterId, reason } }];
  },
};
