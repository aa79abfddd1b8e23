import { describe, expect, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { isVideoAvailable, videoDecider, VIDEO_MESSAGES } from '../videos/video-decider';
import type { VideoEvent } from '../videos/events';
import type { VideoDeleted } from '../videos/events';
import { notificationsCausedBy, NOTIFICATION_TEXTS } from '../notifications/notification-rules';
import { userDecider } from '../identity/user-decider';
import { MESSAGES } from '../identity/rules';
import type { UserEvent } from '../identity/events';
import { catalogueDecider, GiftDescriptionSchema, type CatalogueEvent } from '../gifts/catalogue-decider';
import { isReportClosed, reportDecider, type ReportFacts } from './report-decider';
import { operationsDecider } from './operations-decider';
import type { ReportStatusChanged } from './events';
import {
  MODERATION_MESSAGES,
  SANCTION_MESSAGES,
  adminResponseField,
  reportStatusField,
  reportStream,
  visibilityField,
} from './rules';
import { videoUploaded } from '../videos/testing';

const facts: ReportFacts = { reportId: 3, videoId: 7, reporterId: 'rep', authorId: 'auth' };
const change = (
  status: string,
  adminResponse?: string | null,
  extra: Partial<{ report: ReportFacts | null; requesterIsAdmin: boolean }> = {},
) => ({
  type: 'ChangeReportStatus' as const,
  report: facts,
  status,
  adminResponse,
  requesterIsAdmin: true,
  ...extra,
});
const changed = (
  status: 'en_attente' | 'en_cours' | 'ferme',
  adminResponse: string | null,
  previousStatus: 'en_attente' | 'en_cours' | 'ferme',
  previousAdminResponse: string | null,
): ReportStatusChanged => ({
  type: 'ReportStatusChanged',
  data: { ...facts, status, adminResponse, previousStatus, previousAdminResponse },
});
const [RESTRICTED, ERASED] = SANCTION_MESSAGES;

describe('report moderation decider', () => {
  it('moves a waiting report to en_cours, then closes it with a sanction', () => {
    given(reportDecider)
      .when(change('en_cours', null))
      .then([changed('en_cours', null, 'en_attente', null)]);
    given(reportDecider, [changed('en_cours', null, 'en_attente', null)])
      .when(change('ferme', RESTRICTED))
      .then([changed('ferme', RESTRICTED, 'en_cours', null)]);
    expect(reportStream(3)).toBe('report-3');
  });
  it('sets any of the three statuses freely, a closed report may be reopened', () => {
    const closed = changed('ferme', null, 'en_attente', null);
    given(reportDecider, [closed])
      .when(change('en_attente', null))
      .then([changed('en_attente', null, 'ferme', null)]);
    expect(isReportClosed(fold(reportDecider, [closed]))).toBe(true);
    expect(isReportClosed(fold(reportDecider, [closed, changed('en_cours', null, 'ferme', null)]))).toBe(false);
  });
  it('saving what is already there appends nothing; an absent response keeps the current one', () => {
    given(reportDecider).when(change('en_attente', null)).then([]);
    given(reportDecider, [changed('en_cours', ERASED, 'en_attente', null)])
      .when(change('en_cours', ERASED))
      .then([]);
    given(reportDecider, [changed('en_cours', ERASED, 'en_attente', null)])
      .when(change('en_cours', undefined))
      .then([]);
    given(reportDecider, [changed('en_cours', ERASED, 'en_attente', null)])
      .when(change('ferme', undefined))
      .then([changed('ferme', ERASED, 'en_cours', ERASED)]);
    given(reportDecider, [changed('en_cours', ERASED, 'en_attente', null)])
      .when(change('en_cours', null))
      .then([changed('en_cours', null, 'en_cours', ERASED)]);
  });
  it('refuses members, unknown reports, unknown statuses and sanctions', () => {
    given(reportDecider)
      .when(change('ferme', null, { requesterIsAdmin: false }))
      .thenThrows(MODERATION_MESSAGES.adminOnly, 'forbidden');
    given(reportDecider)
      .when(change('ferme', null, { report: null }))
      .thenThrows(MODERATION_MESSAGES.reportNotFound, 'not_found');
    given(reportDecider).when(change('fermé', null)).thenThrows(MODERATION_MESSAGES.badStatus, 'invalid');
    given(reportDecider)
      .when(change('ferme', 'Vous êtes banni'))
      .thenThrows(MODERATION_MESSAGES.unknownSanction, 'invalid');
  });
});

describe('report update notifications', () => {
  const of = (e: ReportStatusChanged) =>
    notificationsCausedBy(e).map((n) => [n.recipientId, NOTIFICATION_TEXTS[n.type]('', n.detail), n.type, n.videoId]);
  it('a new sanction reaches the author; closing tells the reporter', () => {
    expect(of(changed('ferme', RESTRICTED, 'en_cours', null))).toEqual([
      ['auth', RESTRICTED, 'report_update', 7],
      ['rep', 'Ton signalement a été traité.', 'report_update', 7],
    ]);
  });
  it('nothing new, nobody notified', () => {
    expect(of(changed('en_cours', null, 'en_attente', null))).toEqual([]);
    // the same sanction again, a closed report saved again
    expect(of(changed('ferme', RESTRICTED, 'en_cours', RESTRICTED))).toEqual([
      ['rep', 'Ton signalement a été traité.', 'report_update', 7],
    ]);
    expect(of(changed('ferme', RESTRICTED, 'ferme', null))).toEqual([['auth', RESTRICTED, 'report_update', 7]]);
  });
});

describe('moderation fields', () => {
  it('statuses: exactly the three', () => {
    expect(reportStatusField.parse(' ferme ')).toBe('ferme');
    for (const bad of ['fermé', '', 'FERME', 3, null, undefined])
      expect(reportStatusField.safeParse(bad).error?.issues[0].message).toBe(MODERATION_MESSAGES.badStatus);
  });
  it('sanctions: one of section 9, or none', () => {
    expect(adminResponseField.parse(RESTRICTED)).toBe(RESTRICTED);
    expect(adminResponseField.parse(`  ${ERASED} `)).toBe(ERASED);
    expect(adminResponseField.parse('')).toBeNull();
    expect(adminResponseField.parse(null)).toBeNull();
    expect(adminResponseField.parse(undefined)).toBeUndefined();
    for (const bad of ['Banni', 12, {}, ['x']])
      expect(adminResponseField.safeParse(bad).error?.issues[0].message).toBe(MODERATION_MESSAGES.unknownSanction);
  });
  it('visibilities, with or without accents (composed or not)', () => {
    expect(visibilityField.parse('masquée')).toBe('masquée');
    expect(visibilityField.parse('masquee')).toBe('masquée');
    expect(visibilityField.parse('Supprimee')).toBe('supprimée');
    expect(visibilityField.parse('supprime\u0301e')).toBe('supprimée');
    expect(visibilityField.parse('publique')).toBe('publique');
    for (const bad of ['cachée', '', 1, null])
      expect(visibilityField.safeParse(bad).error?.issues[0].message).toBe(MODERATION_MESSAGES.badVisibility);
  });
});

describe('video visibility', () => {
  const uploaded = videoUploaded(7, 'u1');
  const deleted: VideoDeleted = { type: 'VideoDeleted', data: { videoId: 7, ownerId: 'u1', deletedBy: 'u1' } };
  const set = (visibility: 'publique' | 'masquée' | 'supprimée', requesterIsAdmin = true) => ({
    type: 'SetVideoVisibility' as const,
    videoId: 7,
    visibility,
    requesterId: 'admin',
    requesterIsAdmin,
    now: new Date('2026-11-29T10:00:00Z'),
  });
  const visibility = (status: 'publique' | 'masquée' | 'supprimée'): VideoEvent => ({
    type: 'VideoVisibilityChanged',
    data: { videoId: 7, status, changedBy: 'admin' },
  });
  it('an administrator hides a video, then makes it public again', () => {
    given(videoDecider, [uploaded])
      .when(set('masquée'))
      .then([
        {
          type: 'VideoVisibilityChanged',
          data: {
            videoId: 7,
            status: 'masquée',
            changedBy: 'admin',
            // a decision its author is told about and may contest (issue 32): SPEC's message when none was chosen
            decisionNo: 1,
            ownerId: 'u1',
            previousStatus: 'publique',
            reason: 'Votre vidéo a été restreinte pour non-conformité',
            at: '2026-11-29T10:00:00.000Z',
          },
        },
      ]);
    given(videoDecider, [uploaded, visibility('masquée')])
      .when(set('publique'))
      .then([visibility('publique')]);
    expect(isVideoAvailable(fold(videoDecider, [uploaded, visibility('masquée')]))).toBe(false);
    expect(isVideoAvailable(fold(videoDecider, [uploaded, visibility('masquée'), visibility('publique')]))).toBe(true);
  });
  const deletedByAdmin: VideoDeleted = {
    type: 'VideoDeleted',
    data: { videoId: 7, ownerId: 'u1', deletedBy: 'admin' },
  };
  it('a video an administrator deleted can be made public again', () => {
    given(videoDecider, [uploaded, deletedByAdmin])
      .when(set('publique'))
      .then([visibility('publique')]);
    given(videoDecider, [uploaded, visibility('supprimée')])
      .when(set('publique'))
      .then([visibility('publique')]);
    expect(isVideoAvailable(fold(videoDecider, [uploaded, deletedByAdmin, visibility('publique')]))).toBe(true);
    // and its owner may delete it again
    given(videoDecider, [uploaded, deletedByAdmin, visibility('publique')])
      .when({ type: 'DeleteVideo', videoId: 7, requesterId: 'u1', requesterIsAdmin: false, now: new Date() })
      .then([deleted]);
  });
  it('a video its owner deleted cannot be brought back: its files are erased', () => {
    for (const status of ['publique', 'masquée'] as const) {
      given(videoDecider, [uploaded, deleted]).when(set(status)).thenThrows(VIDEO_MESSAGES.erasedByOwner, 'conflict');
      // nor after an administrator's own deletion on top
      given(videoDecider, [uploaded, deleted, visibility('supprimée')])
        .when(set(status))
        .thenThrows(VIDEO_MESSAGES.erasedByOwner, 'conflict');
    }
    given(videoDecider, [uploaded, deleted]).when(set('supprimée')).then([]);
  });
  it('the same visibility again appends nothing', () => {
    given(videoDecider, [uploaded]).when(set('publique')).then([]);
    given(videoDecider, [uploaded, deleted]).when(set('supprimée')).then([]);
  });
  it('members may not; unknown videos are not found', () => {
    given(videoDecider, [uploaded]).when(set('masquée', false)).thenThrows(VIDEO_MESSAGES.adminOnly, 'forbidden');
    given(videoDecider).when(set('masquée')).thenThrows(VIDEO_MESSAGES.notFound, 'not_found');
  });
});

describe('administrator roles', () => {
  const registered: UserEvent = {
    type: 'UserRegistered',
    data: { userId: 'u1', email: 'a@b.fr', pseudo: 'Alice', passwordHash: 'h', bio: 'bio', profilePicture: 'p.png' },
  };
  const granted: UserEvent = { type: 'AdminRoleGranted', data: { userId: 'u1' } };
  it('refuses to revoke the last administrator', () => {
    given(userDecider, [registered, granted])
      .when({ type: 'RevokeAdmin', userId: 'u1', otherAdmins: 0 })
      .thenThrows(MESSAGES.lastAdmin, 'conflict');
    given(userDecider, [registered, granted])
      .when({ type: 'RevokeAdmin', userId: 'u1', otherAdmins: 1 })
      .then([{ type: 'AdminRoleRevoked', data: { userId: 'u1' } }]);
  });
  it('a member who is not an administrator gets that error first', () => {
    given(userDecider, [registered])
      .when({ type: 'RevokeAdmin', userId: 'u1', otherAdmins: 0 })
      .thenThrows(MESSAGES.notAdmin, 'conflict');
  });
});

describe('gift catalogue editing', () => {
  const rose = { name: 'Rose', emoji: '🌹', imageUrl: '', coinCost: 1 };
  const added: CatalogueEvent = { type: 'GiftAdded', data: { giftId: 1, ...rose } };
  it('saving a gift unchanged appends nothing', () => {
    given(catalogueDecider, [added]).when({ type: 'UpdateGift', giftId: 1, gift: rose }).then([]);
  });
  it('a free gift may be in the catalogue (the admin form falls back to 0)', () => {
    expect(GiftDescriptionSchema.safeParse({ ...rose, coinCost: 0 }).success).toBe(true);
    expect(GiftDescriptionSchema.safeParse({ ...rose, coinCost: -1 }).success).toBe(false);
    given(catalogueDecider, [added])
      .when({ type: 'AddGift', gift: { ...rose, coinCost: 0 } })
      .then([{ type: 'GiftAdded', data: { giftId: 2, ...rose, coinCost: 0 } }]);
  });
});

describe('operations decider', () => {
  const request = (extra: Partial<{ requesterIsAdmin: boolean; embedded: boolean; running: boolean }> = {}) => ({
    type: 'RequestRebuild' as const,
    requestedBy: 'admin',
    requesterIsAdmin: true,
    embedded: true,
    running: false,
    ...extra,
  });
  it('records a rebuild requested by an administrator', () => {
    given(operationsDecider)
      .when(request())
      .then([{ type: 'ProjectionsRebuildRequested', data: { requestedBy: 'admin' } }]);
    given(operationsDecider, [{ type: 'ProjectionsRebuildRequested', data: { requestedBy: 'admin' } }])
      .when(request())
      .then([{ type: 'ProjectionsRebuildRequested', data: { requestedBy: 'admin' } }]);
  });
  it('refuses members, the distributed stack and a second rebuild while one runs', () => {
    given(operationsDecider)
      .when(request({ requesterIsAdmin: false }))
      .thenThrows(MODERATION_MESSAGES.adminOnly, 'forbidden');
    given(operationsDecider)
      .when(request({ embedded: false }))
      .thenThrows(MODERATION_MESSAGES.rebuildNotHere, 'conflict');
    given(operationsDecider)
      .when(request({ running: true }))
      .thenThrows(MODERATION_MESSAGES.rebuildRunning, 'conflict');
  });
});
