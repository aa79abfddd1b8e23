import { describe, expect, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { videoDecider, type VideoStreamEvent } from '../videos/video-decider';
import { notificationsCausedBy } from '../notifications/notification-rules';
import { videoAppealDecider } from './video-appeal-decider';
import { APPEAL_MESSAGES, parseDecisionId, videoDecisionId } from './appeal-rules';
import { MODERATION_MESSAGES, SANCTION_MESSAGES } from './rules';

const decidedAt = '2026-06-01T10:00:00.000Z';
const now = new Date('2026-06-02T10:00:00Z');
const uploaded: VideoStreamEvent = {
  type: 'VideoUploaded',
  data: {
    videoId: 7,
    ownerId: 'author',
    title: 'T',
    description: '',
    filePath: '/uploads/videos/x.mp4',
    mimeType: 'video/mp4',
    sizeBytes: 10,
  },
};
const hidden = (decisionNo = 1, previousStatus: 'publique' | 'masquée' = 'publique'): VideoStreamEvent => ({
  type: 'VideoVisibilityChanged',
  data: {
    videoId: 7,
    status: 'masquée',
    changedBy: 'admin',
    decisionNo,
    ownerId: 'author',
    previousStatus,
    reason: SANCTION_MESSAGES[0],
    at: decidedAt,
  },
});
const deletedByAdmin: VideoStreamEvent = {
  type: 'VideoDeleted',
  data: {
    videoId: 7,
    ownerId: 'author',
    deletedBy: 'admin',
    decisionNo: 2,
    previousStatus: 'masquée',
    reason: SANCTION_MESSAGES[1],
    at: decidedAt,
  },
};
const madePublic: VideoStreamEvent = {
  type: 'VideoVisibilityChanged',
  data: { videoId: 7, status: 'publique', changedBy: 'admin' },
};
const appeal = (decisionNo = 1, requesterId = 'author', text = 'Ma vidéo respecte les règles.', at = now) => ({
  type: 'AppealVideoDecision' as const,
  decisionNo,
  requesterId,
  text,
  now: at,
});
const appealed = (decisionNo = 1): VideoStreamEvent => ({
  type: 'DecisionAppealed',
  data: {
    decisionId: `video-7-${decisionNo}`,
    subjectId: 'author',
    videoId: 7,
    decisionNo,
    text: 'Ma vidéo respecte les règles.',
    at: now.toISOString(),
  },
});
const answer = (outcome: string, decisionNo = 1, requesterIsAdmin = true, text = 'Vérifiée : rien à redire.') => ({
  type: 'AnswerVideoAppeal' as const,
  decisionNo,
  requesterId: 'admin',
  requesterIsAdmin,
  outcome,
  answer: text,
  now,
});
const answered = (outcome: 'maintenue' | 'annulée', decisionNo = 1): VideoStreamEvent => ({
  type: 'AppealAnswered',
  data: {
    decisionId: `video-7-${decisionNo}`,
    subjectId: 'author',
    videoId: 7,
    decisionNo,
    outcome,
    answer: 'Vérifiée : rien à redire.',
    at: now.toISOString(),
  },
});

describe('appeals against a decision on a video', () => {
  it('the author contests a hide with their own text', () => {
    given(videoAppealDecider, [uploaded, hidden()]).when(appeal()).then([appealed()]);
  });
  it('an administrator keeps the decision: the answer only', () => {
    given(videoAppealDecider, [uploaded, hidden(), appealed()])
      .when(answer('maintenue'))
      .then([answered('maintenue')]);
  });
  it('an administrator reverses it: the video goes back to its former visibility in the same append', () => {
    given(videoAppealDecider, [uploaded, hidden(), appealed()])
      .when(answer('annulée'))
      .then([answered('annulée'), madePublic]);
    // a deletion that followed a hide goes back to hidden, not to public
    given(videoAppealDecider, [uploaded, hidden(), deletedByAdmin, appealed(2)])
      .when(answer('annulée', 2))
      .then([
        answered('annulée', 2),
        { type: 'VideoVisibilityChanged', data: { videoId: 7, status: 'masquée', changedBy: 'admin' } },
      ]);
    const after = fold(videoDecider, [uploaded, hidden(), appealed(), answered('annulée'), madePublic]);
    expect(after.status !== 'none' && after.visibility).toBe('publique');
  });
  it("someone else's decision: refused", () => {
    given(videoAppealDecider, [uploaded, hidden()])
      .when(appeal(1, 'intruder'))
      .thenThrows(APPEAL_MESSAGES.notYours, 'forbidden');
  });
  it('a second appeal: refused, even once answered', () => {
    given(videoAppealDecider, [uploaded, hidden(), appealed()])
      .when(appeal())
      .thenThrows(APPEAL_MESSAGES.alreadyAppealed, 'conflict');
    given(videoAppealDecider, [uploaded, hidden(), appealed(), answered('maintenue')])
      .when(appeal())
      .thenThrows(APPEAL_MESSAGES.alreadyAppealed, 'conflict');
  });
  it('after six months: refused, naming when the window closed', () => {
    given(videoAppealDecider, [uploaded, hidden()])
      .when(appeal(1, 'author', 'x', new Date('2026-12-01T10:00:00.001Z')))
      .thenThrows(APPEAL_MESSAGES.deadlinePassed(new Date('2026-12-01T10:00:00Z')), 'conflict');
    // the last moment is still open
    given(videoAppealDecider, [uploaded, hidden()])
      .when(appeal(1, 'author', 'Ma vidéo respecte les règles.', new Date('2026-12-01T10:00:00Z')))
      .then([{ ...appealed(), data: { ...appealed().data, at: '2026-12-01T10:00:00.000Z' } } as VideoStreamEvent]);
  });
  it('a decision since reversed (made public) or replaced by another: refused', () => {
    given(videoAppealDecider, [uploaded, hidden(), madePublic])
      .when(appeal())
      .thenThrows(APPEAL_MESSAGES.noLongerInForce, 'conflict');
    given(videoAppealDecider, [uploaded, hidden(), deletedByAdmin])
      .when(appeal(1))
      .thenThrows(APPEAL_MESSAGES.noLongerInForce, 'conflict');
    given(videoAppealDecider, [uploaded, hidden(), deletedByAdmin])
      .when(appeal(2))
      .then([appealed(2)]);
  });
  it('an empty text, an unknown decision, a change that is not a decision: refused', () => {
    given(videoAppealDecider, [uploaded, hidden()])
      .when(appeal(1, 'author', ' \u200b '))
      .thenThrows(APPEAL_MESSAGES.textRequired, 'invalid');
    given(videoAppealDecider, [uploaded, hidden()]).when(appeal(2)).thenThrows(APPEAL_MESSAGES.decisionNotFound);
    // a visibility change of an older log (no decision number) is no decision
    given(videoAppealDecider, [
      uploaded,
      { type: 'VideoVisibilityChanged', data: { videoId: 7, status: 'masquée', changedBy: 'a' } },
    ])
      .when(appeal(1))
      .thenThrows(APPEAL_MESSAGES.decisionNotFound, 'not_found');
  });
  it('answers: administrators only, once, to an appeal that exists, with a text', () => {
    given(videoAppealDecider, [uploaded, hidden(), appealed()])
      .when(answer('annulée', 1, false))
      .thenThrows(MODERATION_MESSAGES.adminOnly, 'forbidden');
    given(videoAppealDecider, [uploaded, hidden()]).when(answer('annulée')).thenThrows(APPEAL_MESSAGES.appealNotFound);
    given(videoAppealDecider, [uploaded, hidden(), appealed(), answered('maintenue')])
      .when(answer('annulée'))
      .thenThrows(APPEAL_MESSAGES.alreadyAnswered, 'conflict');
    given(videoAppealDecider, [uploaded, hidden(), appealed()])
      .when(answer('peut-être'))
      .thenThrows(APPEAL_MESSAGES.badOutcome, 'invalid');
    given(videoAppealDecider, [uploaded, hidden(), appealed()])
      .when(answer('maintenue', 1, true, ''))
      .thenThrows(APPEAL_MESSAGES.answerRequired, 'invalid');
  });
  it('a reversal of a decision an administrator already undid changes no visibility', () => {
    given(videoAppealDecider, [uploaded, hidden(), appealed(), madePublic])
      .when(answer('annulée'))
      .then([answered('annulée')]);
  });
  it('the video decider numbers decisions and ignores appeals', () => {
    const state = fold(videoDecider, [uploaded, hidden(), appealed(), answered('annulée'), madePublic]);
    expect(state.status !== 'none' && state.decisions).toBe(1);
  });
  it('decision ids name the stream and the number', () => {
    expect(videoDecisionId(7, 2)).toBe('video-7-2');
    expect(parseDecisionId('video-7-2')).toEqual({ kind: 'video', videoId: 7, decisionNo: 2 });
    expect(parseDecisionId('restriction-abc-1')).toEqual({ kind: 'restriction', userId: 'abc', decisionNo: 1 });
    expect(parseDecisionId('video-0-1')).toBeUndefined();
    expect(parseDecisionId('report-1')).toBeUndefined();
  });
  it('the author is notified of a decision with its reason, and of the answer to their appeal', () => {
    const hide = hidden();
    expect(notificationsCausedBy(hide)).toEqual([
      { type: 'report_update', recipientId: 'author', senderId: null, videoId: 7, detail: SANCTION_MESSAGES[0] },
    ]);
    expect(notificationsCausedBy(madePublic)).toEqual([]);
    expect(notificationsCausedBy(answered('annulée'))).toEqual([
      {
        type: 'report_update',
        recipientId: 'author',
        senderId: null,
        videoId: 7,
        detail: APPEAL_MESSAGES.decided('annulée', 'Vérifiée : rien à redire.'),
      },
    ]);
  });
});
