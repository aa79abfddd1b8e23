import type { ReportView } from '@evo/contracts';
import type { Doc } from '@evo/infra';
import { DELETED_MEMBER_LABEL, positionToString } from '@evo/domain';
import { goneMember } from '../runtime/member-gone';
import { eventTypesOf, memberCopies, videoCopies } from '../runtime/own-copies';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';
import { ADMINS_ROOM } from '../identity/users-projector';

export const REPORTS = 'reports';
export const REPORT_STATUS_WAITING = 'en_attente';

/**
 * A report as the moderation screen lists it (the product entities, "Report"), and its moderation:
 * the contract's `ReportView` but the video's status, which the query joins.
 */
export interface ReportDoc extends Doc, Omit<ReportView, 'video_status'> {
  _id: number;
  reporter_id: string;
  author_id: string;
  /** time of the last moderation decision */
  updated_at?: string;
}

/**
 * Reports of videos, newest first, and the moderators' decisions on them (status, sanction
 * message). Pushes 'report:new' { id } and 'report:updated' { id, status, admin_response,
 * position } to the administrators' room.
 */
/** reporters and videos' authors, and the videos' titles (the projector's own copies) */
const members = memberCopies('report_members', ['pseudo']);
const videos = videoCopies('report_videos', { titles: true });

export const reportsProjector: Projector = {
  name: 'reports',
  collections: [REPORTS, members.collection, videos.collection],
  eventTypes: eventTypesOf(['VideoReported', 'ReportStatusChanged'], members.eventTypes, videos.eventTypes),
  indexes: {
    [REPORTS]: [
      { key: { created_at: -1, _id: -1 } },
      { key: { status: 1, created_at: -1, _id: -1 } },
      { key: { video_id: 1 } },
      { key: { reporter_id: 1 } },
      { key: { author_id: 1 } },
    ],
    [videos.collection]: videos.indexes,
  },
  async project(event, store, ctx) {
    await members.project(event, store);
    await videos.project(event, store);
    const gone = goneMember(event);
    if (gone) {
      // the reports stay (moderation records), without the deleted member: a reporter's reason is theirs
      const reports = store.collection<ReportDoc>(REPORTS);
      await reports.updateMany(
        { reporter_id: gone },
        { $set: { reporter_id: '', signalant: DELETED_MEMBER_LABEL, reason: '' } },
      );
      await reports.updateMany(
        { author_id: gone },
        { $set: { author_id: '', auteur: DELETED_MEMBER_LABEL, video_title: '' } },
      );
      return;
    }
    if (event.type === 'ReportStatusChanged') {
      const d = event.data;
      const applied = await applyOnce(store.collection<ReportDoc>(REPORTS), d.reportId, event.position, {
        $set: { status: d.status, admin_response: d.adminResponse, updated_at: event.metadata.at },
      });
      if (applied)
        ctx.push(ADMINS_ROOM, 'report:updated', {
          id: d.reportId,
          status: d.status,
          admin_response: d.adminResponse,
          position: positionToString(event.position),
        });
      return;
    }
    if (event.type !== 'VideoReported') return;
    const d = event.data;
    const reporter = await members.find(store, d.reporterId);
    const video = await videos.find(store, d.videoId);
    const author = video ? await members.find(store, video.owner_id) : null;
    const created = await applyOnce(
      store.collection<ReportDoc>(REPORTS),
      d.reportId,
      event.position,
      {
        $set: {
          id: d.reportId,
          video_id: d.videoId,
          video_title: video?.title ?? '',
          created_at: event.metadata.at,
          signalant: reporter?.pseudo ?? '',
          auteur: author?.pseudo ?? '',
          reason: d.reason,
          reporter_id: d.reporterId,
          author_id: video?.owner_id ?? '',
        },
        // moderation changes these later: a redelivered report never resets them
        $setOnInsert: { status: REPORT_STATUS_WAITING, admin_response: null },
      },
      { upsert: true },
    );
    if (created) ctx.push(ADMINS_ROOM, 'report:new', { id: d.reportId });
  },
};
