import type { Decider } from '../shared/decider';
import { conflict, gone, notFound } from '../shared/errors';
import type { DataExportEvent } from './events';
import { DATA_EXPORT_MESSAGES as M, DATA_EXPORT_STALE_MS, DATA_EXPORT_TTL_MS } from './rules';

/**
 * A member's data exports: stream `data-export-<memberId>`. One archive is built at a time per
 * member (asked by them or by an administrator); once it is ready (or failed, or its build is
 * dead: DATA_EXPORT_STALE_MS) a new one may be asked for. A deleted account gets none. The handler
 * passes what other streams say (the account deleted) in the command.
 */
export type DataExportCommand =
  | {
      type: 'RequestDataExport';
      exportId: string;
      memberId: string;
      requestedBy: string;
      byAdmin: boolean;
      /** the member's stream records the account's deletion */
      accountDeleted: boolean;
      now: Date;
    }
  /** from the job; ignored unless it is the build in progress */
  | { type: 'RecordDataExportProgress'; exportId: string; done: number; total: number; now: Date }
  | { type: 'CompleteDataExport'; exportId: string; fileName: string; sizeBytes: number; now: Date }
  | { type: 'FailDataExport'; exportId: string; reason: string };

export interface DataExportInfo {
  exportId: string;
  byAdmin: boolean;
  requestedBy: string;
  status: 'building' | 'ready' | 'failed';
  /** the last sign of life of its build (request or progress), ISO */
  activeAt: string;
  done: number;
  total: number;
  fileName: string | null;
  expiresAt: string | null;
}

export interface DataExportState {
  memberId: string | null;
  exports: ReadonlyMap<string, DataExportInfo>;
  /** the export being built, if any (the last one asked for) */
  building: string | null;
}

const isAlive = (e: DataExportInfo, now: Date) =>
  e.status === 'building' && now.getTime() - Date.parse(e.activeAt) < DATA_EXPORT_STALE_MS;

const withExport = (state: DataExportState, info: DataExportInfo): DataExportState => {
  const exports = new Map(state.exports);
  exports.set(info.exportId, info);
  return { ...state, exports };
};

export const dataExportDecider: Decider<DataExportCommand, DataExportEvent, DataExportState> = {
  initialState: () => ({ memberId: null, exports: new Map(), building: null }),
  evolve(state, event) {
    const d = event.data;
    const current = state.exports.get(d.exportId);
    switch (event.type) {
      case 'DataExportRequested':
        return {
          ...withExport(state, {
            exportId: d.exportId,
            byAdmin: event.data.byAdmin,
            requestedBy: event.data.requestedBy,
            status: 'building',
            activeAt: event.data.at,
            done: 0,
            total: 1,
            fileName: null,
            expiresAt: null,
          }),
          memberId: d.memberId,
          building: d.exportId,
        };
      case 'DataExportProgressed':
        if (!current) return state;
        return withExport(state, {
          ...current,
          done: event.data.done,
          total: event.data.total,
          activeAt: event.data.at,
        });
      case 'DataExportReady':
        if (!current) return state;
        return {
          ...withExport(state, {
            ...current,
            status: 'ready',
            done: current.total,
            fileName: event.data.fileName,
            expiresAt: event.data.expiresAt,
          }),
          building: state.building === d.exportId ? null : state.building,
        };
      case 'DataExportFailed':
        if (!current) return state;
        return {
          ...withExport(state, { ...current, status: 'failed' }),
          building: state.building === d.exportId ? null : state.building,
        };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RequestDataExport': {
        if (command.accountDeleted) throw gone(M.accountDeleted);
        const building = state.building ? state.exports.get(state.building) : undefined;
        if (building && isAlive(building, command.now))
          throw conflict(command.byAdmin ? M.inProgressAdmin : M.inProgress);
        // a dead build is closed as failed before the new one starts: it never reads as in progress again
        const closed: DataExportEvent[] =
          building && building.status === 'building' && state.memberId
            ? [
                {
                  type: 'DataExportFailed',
                  data: { exportId: building.exportId, memberId: state.memberId, reason: M.interrupted },
                },
              ]
            : [];
        return [
          ...closed,
          {
            type: 'DataExportRequested',
            data: {
              exportId: command.exportId,
              memberId: command.memberId,
              requestedBy: command.requestedBy,
              byAdmin: command.byAdmin,
              at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'RecordDataExportProgress': {
        const e = state.exports.get(command.exportId);
        if (!e || !state.memberId || state.building !== command.exportId) return [];
        if (e.done === command.done && e.total === command.total) return [];
        return [
          {
            type: 'DataExportProgressed',
            data: {
              exportId: command.exportId,
              memberId: state.memberId,
              done: command.done,
              total: command.total,
              at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'CompleteDataExport': {
        // a redelivered job, or the late end of a build taken as dead: nothing to record
        const e = state.exports.get(command.exportId);
        if (!e || !state.memberId || state.building !== command.exportId) return [];
        return [
          {
            type: 'DataExportReady',
            data: {
              exportId: command.exportId,
              memberId: state.memberId,
              fileName: command.fileName,
              sizeBytes: command.sizeBytes,
              byAdmin: e.byAdmin,
              readyAt: command.now.toISOString(),
              expiresAt: new Date(command.now.getTime() + DATA_EXPORT_TTL_MS).toISOString(),
            },
          },
        ];
      }
      case 'FailDataExport':
        if (!state.memberId || state.building !== command.exportId) return [];
        return [
          {
            type: 'DataExportFailed',
            data: { exportId: command.exportId, memberId: state.memberId, reason: command.reason },
          },
        ];
    }
  },
};

/** Who asks for an archive's file. */
export interface ArchiveViewer {
  userId: string;
  isAdmin: boolean;
}

/**
 * The archive `exportId` of this member's stream, for `viewer`: the member's own request is theirs
 * alone, an administrator's is for administrators alone (sent by post). Anyone else learns nothing,
 * not even that it exists (404). Not ready yet: 409; failed: 404; past its expiry: 410.
 */
export function archiveFor(
  state: DataExportState,
  exportId: string,
  viewer: ArchiveViewer,
  now: Date,
  accountDeleted: boolean,
): { fileName: string; expiresAt: string } {
  const e = state.exports.get(exportId);
  const allowed = e && (e.byAdmin ? viewer.isAdmin : viewer.userId === state.memberId);
  if (!e || !allowed) throw notFound(M.notFound);
  if (accountDeleted) throw gone(M.accountDeleted);
  if (e.status === 'building') throw conflict(M.notReady);
  if (e.status === 'failed' || !e.fileName || !e.expiresAt) throw notFound(M.failed);
  if (now.getTime() >= Date.parse(e.expiresAt)) throw gone(M.expired);
  return { fileName: e.fileName, expiresAt: e.expiresAt };
}
