import {
  REPORT_SEQUENCE,
  checkReportable,
  isReportClosed,
  reportClaimDecider,
  reportClaimStream,
  reportDecider,
  reportStream,
  type ReportClaimState,
  type ReportFacts,
} from '@evo/domain';
import { handleCommand, loadState, type CommandContext, type EventStore, type IdAllocator } from '@evo/infra';
import type { ModerationQueries } from '@evo/projections';
import { isAdminByStream } from '../identity/members';
import { loadVideo } from '../social/commands';

/**
 * Reports, on the command side: a member files one on the claim stream of (video, reporter); an
 * administrator decides its status and sanction on `report-<id>`. Both decide from streams.
 */

/**
 * The claim's last report, when moderation closed it (its `report-<id>` stream says 'ferme'): the
 * member may then report the video again. A report reopened later counts as open again.
 */
export async function closedReportIdsOf(events: EventStore, claim: ReportClaimState): Promise<number[]> {
  const last = claim.reports.at(-1);
  if (!last || last.closed) return [];
  const { state } = await loadState(events, reportStream(last.reportId), reportDecider);
  return isReportClosed(state) ? [last.reportId] : [];
}

/**
 * Report a video: its rules are checked (`checkReportable`) before a report id is drawn, then the
 * claim decider decides with the id; the claim stream settles two concurrent reports (the loser has
 * used an id for nothing).
 */
export async function reportVideo(
  events: EventStore,
  ids: IdAllocator,
  reporterId: string,
  videoId: number,
  reason: string,
  ctx: CommandContext,
) {
  const video = await loadVideo(events, videoId);
  const stream = reportClaimStream(videoId, reporterId);
  const claim = (await loadState(events, stream, reportClaimDecider)).state;
  const closedReportIds = await closedReportIdsOf(events, claim);
  // a refused report draws no id (an id block may cost an append) and appends nothing
  checkReportable({ video, closedReportIds, reporterId }, claim);
  const reportId = await ids.next(REPORT_SEQUENCE, ctx);
  const command = { type: 'ReportVideo' as const, reportId, videoId, reporterId, reason, video, closedReportIds };
  const r = await handleCommand(events, stream, reportClaimDecider, command, ctx);
  return { reportId, position: r.position };
}

/**
 * Where a report was filed, read from its streams: the read model only says which claim stream to
 * open (a report id alone does not name it); the claim must hold VideoReported with this id.
 */
export async function reportFacts(
  events: EventStore,
  moderation: ModerationQueries,
  reportId: number,
): Promise<ReportFacts | null> {
  const where = await moderation.locate(reportId);
  if (!where) return null;
  const claim = await events.readStream(reportClaimStream(where.videoId, where.reporterId));
  const filed = claim.find((e) => e.type === 'VideoReported' && (e.data as { reportId: number }).reportId === reportId);
  if (!filed) return null;
  const video = await loadVideo(events, where.videoId);
  if (video.status === 'none') return null;
  return { reportId, videoId: where.videoId, reporterId: where.reporterId, authorId: video.ownerId };
}

export async function changeReportStatus(
  events: EventStore,
  moderation: ModerationQueries,
  input: { requesterId: string; reportId: number; status: string; adminResponse: string | null | undefined },
  ctx: CommandContext,
) {
  const [requesterIsAdmin, report] = await Promise.all([
    isAdminByStream(events, input.requesterId),
    reportFacts(events, moderation, input.reportId),
  ]);
  return handleCommand(
    events,
    reportStream(input.reportId),
    reportDecider,
    { type: 'ChangeReportStatus', report, status: input.status, adminResponse: input.adminResponse, requesterIsAdmin },
    ctx,
  );
}
