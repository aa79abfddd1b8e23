import { positionToString } from '@evo/domain';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';
import { REPORTS, type ReportDoc } from './reports-projector';
import { ADMINS_ROOM } from '../identity/users-projector';

/** guard of this projector's writes to `reports` documents (status, admin_response) */
export const MODERATION_GUARD = 'moderation';

/**
 * Moderation decisions on reports: the status and the sanction message of the `reports` documents
 * (created by the reports projector: VideoReported always precedes its moderation in the log).
 * Pushes 'report:updated' { id, status, admin_response, position } to the administrators' room.
 */
export const moderationProjector: Projector = {
  name: 'moderation',
  collections: [],
  eventTypes: ['ReportStatusChanged'],
  async project(event, store, ctx) {
    if (event.type !== 'ReportStatusChanged') return;
    const d = event.data;
    const applied = await applyOnce(
      store.collection<ReportDoc>(REPORTS),
      d.reportId,
      event.position,
      { $set: { status: d.status, admin_response: d.adminResponse, updated_at: event.metadata.at } },
      { guard: MODERATION_GUARD },
    );
    if (applied)
      ctx.push(ADMINS_ROOM, 'report:updated', {
        id: d.reportId,
        status: d.status,
        admin_response: d.adminResponse,
        position: positionToString(event.position),
      });
  },
};
