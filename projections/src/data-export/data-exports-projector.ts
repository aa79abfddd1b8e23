import { positionToString, type DataExportRequested } from '@evo/domain';
import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { applyOnce } from '../runtime/write-once';

export const DATA_EXPORTS = 'data_exports';

/** One archive of a member's data (issue 31), shaped for "Mes données" and the back-office's member screen. */
export interface DataExportDoc extends Doc {
  /** the export id */
  _id: string;
  member_id: string;
  requested_by: string;
  by_admin: boolean;
  requested_at: string;
  /** en_preparation, prete, echouee ('expiree' is read from expires_at) */
  status: 'en_preparation' | 'prete' | 'echouee';
  done: number;
  total: number;
  ready_at: string | null;
  expires_at: string | null;
  size_bytes: number | null;
  error: string | null;
}

/** An archive just asked for, as DataExportRequested makes it (the request's answer shows the same). */
export function requestedDataExport(d: DataExportRequested['data']): DataExportDoc {
  return {
    _id: d.exportId,
    member_id: d.memberId,
    requested_by: d.requestedBy,
    by_admin: d.byAdmin,
    requested_at: d.at,
    status: 'en_preparation',
    done: 0,
    total: 1,
    ready_at: null,
    expires_at: null,
    size_bytes: null,
    error: null,
  };
}

/** The exports of each member; pushes 'data-export:changed' to the member (their own) or to `admins`. */
export const dataExportsProjector: Projector = {
  name: 'data-exports',
  collections: [DATA_EXPORTS],
  eventTypes: ['DataExportRequested', 'DataExportProgressed', 'DataExportReady', 'DataExportFailed'],
  indexes: { [DATA_EXPORTS]: [{ key: { member_id: 1, requested_at: -1 } }] },
  async project(event, store, ctx) {
    if (
      event.type !== 'DataExportRequested' &&
      event.type !== 'DataExportProgressed' &&
      event.type !== 'DataExportReady' &&
      event.type !== 'DataExportFailed'
    )
      return;
    const exports = store.collection<DataExportDoc>(DATA_EXPORTS);
    const d = event.data;
    let applied: boolean;
    let byAdmin: boolean;
    switch (event.type) {
      case 'DataExportRequested':
        byAdmin = event.data.byAdmin;
        applied = await applyOnce(
          exports,
          d.exportId,
          event.position,
          { $set: withoutId(requestedDataExport(event.data)) },
          { upsert: true },
        );
        break;
      case 'DataExportProgressed':
        applied = await applyOnce(exports, d.exportId, event.position, {
          $set: { done: event.data.done, total: event.data.total },
        });
        byAdmin = (await exports.findOne({ _id: d.exportId }, { projection: { by_admin: 1 } }))?.by_admin ?? false;
        break;
      case 'DataExportReady':
        byAdmin = event.data.byAdmin;
        applied = await applyOnce(exports, d.exportId, event.position, {
          $set: {
            status: 'prete',
            ready_at: event.data.readyAt,
            expires_at: event.data.expiresAt,
            size_bytes: event.data.sizeBytes,
          },
        });
        break;
      case 'DataExportFailed':
        applied = await applyOnce(exports, d.exportId, event.position, {
          $set: { status: 'echouee', error: event.data.reason },
        });
        byAdmin = (await exports.findOne({ _id: d.exportId }, { projection: { by_admin: 1 } }))?.by_admin ?? false;
        break;
    }
    if (!applied || !ctx.live) return;
    ctx.push(byAdmin ? 'admins' : `user:${d.memberId}`, 'data-export:changed', {
      export_id: d.exportId,
      member_id: d.memberId,
      position: positionToString(event.position),
    });
  },
};

const withoutId = ({ _id: _, ...rest }: DataExportDoc) => rest;
