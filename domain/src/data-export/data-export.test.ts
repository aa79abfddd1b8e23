import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider';
import { notificationsCausedBy } from '../notifications/notification-rules';
import { given } from '../shared/given-when-then';
import { archiveFor, dataExportDecider, type DataExportCommand } from './data-export-decider';
import type { DataExportEvent } from './events';
import { DATA_EXPORT_MESSAGES as M, DATA_EXPORT_STALE_MS, DATA_EXPORT_TTL_MS } from './rules';

const T0 = new Date('2026-11-29T10:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

const request = (exportId = 'x1', now = T0, byAdmin = false, accountDeleted = false): DataExportCommand => ({
  type: 'RequestDataExport',
  exportId,
  memberId: 'm',
  requestedBy: byAdmin ? 'admin' : 'm',
  byAdmin,
  accountDeleted,
  now,
});
const requested = (exportId = 'x1', at = T0, byAdmin = false): DataExportEvent => ({
  type: 'DataExportRequested',
  data: { exportId, memberId: 'm', requestedBy: byAdmin ? 'admin' : 'm', byAdmin, at: at.toISOString() },
});
const progressed = (done: number, total: number, at = T0, exportId = 'x1'): DataExportEvent => ({
  type: 'DataExportProgressed',
  data: { exportId, memberId: 'm', done, total, at: at.toISOString() },
});
const ready = (exportId = 'x1', at = later(MINUTE), byAdmin = false): DataExportEvent => ({
  type: 'DataExportReady',
  data: {
    exportId,
    memberId: 'm',
    fileName: `evo-donnees-${exportId}.zip`,
    sizeBytes: 1234,
    byAdmin,
    readyAt: at.toISOString(),
    expiresAt: new Date(at.getTime() + DATA_EXPORT_TTL_MS).toISOString(),
  },
});
const failed = (exportId = 'x1', reason: string = M.buildFailed): DataExportEvent => ({
  type: 'DataExportFailed',
  data: { exportId, memberId: 'm', reason },
});
const complete = (exportId = 'x1', now = later(MINUTE)): DataExportCommand => ({
  type: 'CompleteDataExport',
  exportId,
  fileName: `evo-donnees-${exportId}.zip`,
  sizeBytes: 1234,
  now,
});

describe('data export decider: asking for an archive', () => {
  it('a member asks for their archive', () => {
    given(dataExportDecider).when(request()).then([requested()]);
  });
  it('an administrator asks for a member’s archive, recorded with the administrator as actor', () => {
    given(dataExportDecider)
      .when(request('x1', T0, true))
      .then([requested('x1', T0, true)]);
  });
  it('a second request while one is being built is refused, in French, for the member and for an administrator', () => {
    given(dataExportDecider, [requested()])
      .when(request('x2', later(MINUTE)))
      .thenThrows(M.inProgress, 'conflict');
    given(dataExportDecider, [requested(), progressed(2, 5, later(10 * MINUTE))])
      .when(request('x2', later(20 * MINUTE), true))
      .thenThrows(M.inProgressAdmin, 'conflict');
    // an administrator's build in progress holds the member's request too: one build at a time
    given(dataExportDecider, [requested('x1', T0, true)])
      .when(request('x2', later(MINUTE)))
      .thenThrows(M.inProgress, 'conflict');
  });
  it('a new archive may be asked for once the last one is ready, or failed', () => {
    given(dataExportDecider, [requested(), ready()])
      .when(request('x2', later(2 * MINUTE)))
      .then([requested('x2', later(2 * MINUTE))]);
    given(dataExportDecider, [requested(), failed()])
      .when(request('x2', later(2 * MINUTE)))
      .then([requested('x2', later(2 * MINUTE))]);
  });
  it('a build with no sign of life for an hour is closed as interrupted and a new one starts', () => {
    const now = later(10 * MINUTE + DATA_EXPORT_STALE_MS);
    given(dataExportDecider, [requested(), progressed(1, 3, later(10 * MINUTE))])
      .when(request('x2', now))
      .then([failed('x1', M.interrupted), requested('x2', now)]);
    // progress is a sign of life: just before the hour since the last one, still refused
    given(dataExportDecider, [requested(), progressed(1, 3, later(10 * MINUTE))])
      .when(request('x2', later(9 * MINUTE + DATA_EXPORT_STALE_MS)))
      .thenThrows(M.inProgress, 'conflict');
  });
  it('a deleted account gets no archive, whoever asks', () => {
    given(dataExportDecider)
      .when(request('x1', T0, false, true))
      .thenThrows(M.accountDeleted, 'gone');
    given(dataExportDecider, [requested(), ready()])
      .when(request('x2', later(MINUTE), true, true))
      .thenThrows(M.accountDeleted, 'gone');
  });
});

describe('data export decider: the job’s outcome', () => {
  it('records progress of the build in progress, once per change', () => {
    given(dataExportDecider, [requested()])
      .when({ type: 'RecordDataExportProgress', exportId: 'x1', done: 1, total: 3, now: T0 })
      .then([progressed(1, 3)]);
    given(dataExportDecider, [requested(), progressed(1, 3)])
      .when({ type: 'RecordDataExportProgress', exportId: 'x1', done: 1, total: 3, now: later(MINUTE) })
      .then([]);
  });
  it('the archive is ready for 7 days', () => {
    given(dataExportDecider, [requested(), progressed(2, 3)])
      .when(complete())
      .then([ready()]);
  });
  it('a redelivered job, or a build closed as interrupted, records nothing', () => {
    given(dataExportDecider, [requested(), ready()]).when(complete()).then([]);
    given(dataExportDecider, [requested(), failed('x1', M.interrupted), requested('x2', later(MINUTE))])
      .when(complete('x1'))
      .then([]);
    given(dataExportDecider, [requested(), failed('x1', M.interrupted), requested('x2', later(MINUTE))])
      .when({ type: 'RecordDataExportProgress', exportId: 'x1', done: 1, total: 2, now: T0 })
      .then([]);
    given(dataExportDecider).when(complete()).then([]);
  });
  it('records a failure of the build in progress only', () => {
    given(dataExportDecider, [requested()])
      .when({ type: 'FailDataExport', exportId: 'x1', reason: M.buildFailed })
      .then([failed()]);
    given(dataExportDecider, [requested(), ready()])
      .when({ type: 'FailDataExport', exportId: 'x1', reason: M.buildFailed })
      .then([]);
  });
});

describe('who may download an archive', () => {
  const member = { userId: 'm', isAdmin: false };
  const other = { userId: 'o', isAdmin: false };
  const admin = { userId: 'admin', isAdmin: true };
  /** What archiveFor answers `viewer` when it refuses (message and kind); undefined when it gives the archive. */
  const refusal = (...args: Parameters<typeof archiveFor>) => {
    try {
      archiveFor(...args);
    } catch (e) {
      return { message: (e as Error).message, kind: (e as { kind?: string }).kind };
    }
    return undefined;
  };
  const notFound = { message: M.notFound, kind: 'not_found' };
  const state = fold(dataExportDecider, [
    requested(),
    ready(),
    requested('x2', later(2 * MINUTE), true),
    ready('x2', later(3 * MINUTE), true),
  ]);

  it('the member downloads their own archive until it expires', () => {
    expect(archiveFor(state, 'x1', member, later(2 * MINUTE), false).fileName).toBe('evo-donnees-x1.zip');
    expect(refusal(state, 'x1', member, later(MINUTE + DATA_EXPORT_TTL_MS), false)).toEqual({
      message: M.expired,
      kind: 'gone',
    });
  });
  it('another member, even an administrator, does not learn that the member’s archive exists', () => {
    expect(refusal(state, 'x1', other, T0, false)).toEqual(notFound);
    expect(refusal(state, 'x1', admin, T0, false)).toEqual(notFound);
    expect(refusal(state, 'nope', member, T0, false)).toEqual(notFound);
  });
  it('an archive produced by an administrator is for administrators only', () => {
    expect(archiveFor(state, 'x2', admin, later(2 * MINUTE), false).fileName).toBe('evo-donnees-x2.zip');
    expect(refusal(state, 'x2', member, T0, false)).toEqual(notFound);
  });
  it('not ready yet: 409; failed: 404; the account deleted: 410', () => {
    const building = fold(dataExportDecider, [requested()]);
    expect(refusal(building, 'x1', member, T0, false)).toEqual({
      message: M.notReady,
      kind: 'conflict',
    });
    const broken = fold(dataExportDecider, [requested(), failed()]);
    expect(refusal(broken, 'x1', member, T0, false)).toEqual({
      message: M.failed,
      kind: 'not_found',
    });
    expect(refusal(state, 'x2', admin, T0, true)).toEqual({
      message: M.accountDeleted,
      kind: 'gone',
    });
  });
});

describe('the ready notification', () => {
  it('tells the member their archive is ready, with the link’s end; an administrator’s archive is not announced', () => {
    expect(notificationsCausedBy(ready())).toEqual([
      {
        type: 'data_export',
        recipientId: 'm',
        senderId: null,
        videoId: 0,
        detail: M.readyNotice(new Date(later(MINUTE).getTime() + DATA_EXPORT_TTL_MS).toISOString()),
      },
    ]);
    expect(M.readyNotice('2026-12-06T10:01:00.000Z')).toBe(
      'Ton archive « Mes données » est prête : télécharge-la avant le 6 décembre 2026 à 11:01.',
    );
    expect(notificationsCausedBy(ready('x2', later(MINUTE), true))).toEqual([]);
  });
});
