import { describe, expect, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { VIDEO_MESSAGES, videoDecider, type VideoState } from '../videos/video-decider';
import type { VideoDeleted, VideoEvent } from '../videos/events';
import type { VideoReported } from './events';
import { openReportId, reportClaimDecider } from './report-claim-decider';
import { DEFAULT_REPORT_REASON, REPORT_MESSAGES, reportClaimStream, reportReasonField } from './rules';
import { videoUploaded } from '../videos/testing';

const uploaded = videoUploaded();
const deleted: VideoDeleted = { type: 'VideoDeleted', data: { videoId: 7, ownerId: 'owner', deletedBy: 'owner' } };
const videoOf = (...events: VideoEvent[]): VideoState => fold(videoDecider, events);
const live = videoOf(uploaded);
const unknown = videoOf();
const gone = videoOf(uploaded, deleted);

describe('report claim decider', () => {
  const reported: VideoReported = {
    type: 'VideoReported',
    data: { reportId: 3, videoId: 7, reporterId: 'u', reason: 'Spam' },
  };
  const report = (
    reportId: number,
    extra: Partial<{ video: VideoState; closedReportIds: number[]; reason: string }> = {},
  ) => ({
    type: 'ReportVideo' as const,
    reportId,
    videoId: 7,
    reporterId: 'u',
    reason: 'Spam',
    video: live,
    ...extra,
  });

  it('reports a video with its numeric id and reason', () => {
    given(reportClaimDecider).when(report(3)).then([reported]);
    expect(reportClaimStream(7, 'u')).toBe('report-claim-7-u');
  });
  it("refuses a member's report of their own video (issue 29 item 10)", () => {
    given(reportClaimDecider)
      .when({ ...report(3), reporterId: 'owner' })
      .thenThrows(REPORT_MESSAGES.ownVideo, 'forbidden');
  });
  it('refuses a second report while the first is open', () => {
    given(reportClaimDecider, [reported]).when(report(4)).thenThrows(REPORT_MESSAGES.alreadyReported, 'conflict');
  });
  it('accepts a new report once the previous one is known to be closed', () => {
    given(reportClaimDecider, [reported])
      .when(report(4, { closedReportIds: [3] }))
      .then([{ type: 'VideoReported', data: { ...reported.data, reportId: 4 } }]);
    expect(openReportId(fold(reportClaimDecider, [reported]))).toBe(3);
    expect(openReportId(fold(reportClaimDecider, [reported]), [3])).toBeNull();
  });
  it('refuses an unknown or deleted video', () => {
    given(reportClaimDecider)
      .when(report(3, { video: unknown }))
      .thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
    given(reportClaimDecider)
      .when(report(3, { video: gone }))
      .thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
  });
  it('normalises the reason: trimmed, at most 500 characters, "Non spécifié" when empty', () => {
    expect(reportReasonField.parse('  Contenu choquant  ')).toBe('Contenu choquant');
    expect(reportReasonField.parse('   ')).toBe(DEFAULT_REPORT_REASON);
    expect(reportReasonField.parse(undefined)).toBe(DEFAULT_REPORT_REASON);
    expect(reportReasonField.parse(null)).toBe(DEFAULT_REPORT_REASON);
    expect(reportReasonField.parse('x'.repeat(500))).toHaveLength(500);
    expect(reportReasonField.safeParse('x'.repeat(501)).error?.issues[0].message).toBe(REPORT_MESSAGES.reasonTooLong);
    expect(reportReasonField.safeParse(5).error?.issues[0].message).toBe(REPORT_MESSAGES.reasonInvalid);
  });
});
