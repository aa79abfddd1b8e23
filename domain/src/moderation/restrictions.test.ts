import { describe, expect, it } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { RestrictionEvent } from './events';
import { checkNotRestricted, restrictionDecider, activeRestrictions } from './restriction-decider';
import { APPEAL_MESSAGES, RESTRICTION_MESSAGES } from './appeal-rules';
import { MODERATION_MESSAGES } from './rules';

const now = new Date('2026-11-29T10:00:00Z');
const inHours = (h: number) => new Date(now.getTime() + h * 3_600_000);
const restrict = (
  extra: Partial<{
    scopes: string[];
    durationHours: number | null;
    endsAt: string | null;
    reason: string;
    requesterIsAdmin: boolean;
    userId: string;
  }> = {},
) => ({
  type: 'RestrictMember' as const,
  userId: 'member',
  requesterId: 'admin',
  requesterIsAdmin: true,
  scopes: ['comment', 'message'],
  reason: 'Insultes répétées',
  now,
  ...extra,
});
const restricted = (
  restrictionNo = 1,
  endsAt: string | null = inHours(48).toISOString(),
  scopes = ['comment', 'message'] as ('upload' | 'comment' | 'message')[],
): RestrictionEvent => ({
  type: 'MemberRestricted',
  data: { userId: 'member', restrictionNo, scopes, endsAt, reason: 'Insultes répétées', at: now.toISOString() },
});
const lifted = (via: 'admin' | 'appeal' = 'admin', at = now): RestrictionEvent => ({
  type: 'MemberRestrictionLifted',
  data: { userId: 'member', restrictionNo: 1, via, at: at.toISOString() },
});
const appealed: RestrictionEvent = {
  type: 'DecisionAppealed',
  data: {
    decisionId: 'restriction-member-1',
    subjectId: 'member',
    videoId: null,
    decisionNo: 1,
    text: 'Je regrette.',
    at: now.toISOString(),
  },
};
const appeal = (requesterId = 'member', at = now) => ({
  type: 'AppealRestriction' as const,
  restrictionNo: 1,
  requesterId,
  text: 'Je regrette.',
  now: at,
});
const answer = (outcome: string, requesterIsAdmin = true) => ({
  type: 'AnswerRestrictionAppeal' as const,
  restrictionNo: 1,
  requesterIsAdmin,
  outcome,
  answer: 'D’accord, levée.',
  now,
});
const answered = (outcome: 'maintenue' | 'annulée'): RestrictionEvent => {
  const { decisionId, subjectId, videoId, decisionNo } = (
    appealed as Extract<RestrictionEvent, { type: 'DecisionAppealed' }>
  ).data;
  return {
    type: 'AppealAnswered',
    data: { decisionId, subjectId, videoId, decisionNo, outcome, answer: 'D’accord, levée.', at: now.toISOString() },
  };
};

describe('restrictions of a member', () => {
  it('an administrator restricts comments and messages for 48 hours, with a reason', () => {
    given(restrictionDecider)
      .when(restrict({ durationHours: 48 }))
      .then([restricted()]);
  });
  it('until lifted, and every scope at once (in the product order, once each)', () => {
    given(restrictionDecider, [restricted()])
      .when(restrict({ scopes: ['message', 'upload', 'comment', 'upload'] }))
      .then([
        {
          type: 'MemberRestricted',
          data: {
            userId: 'member',
            restrictionNo: 2,
            scopes: ['upload', 'comment', 'message'],
            endsAt: null,
            reason: 'Insultes répétées',
            at: now.toISOString(),
          },
        },
      ]);
  });
  it('an end given as a date', () => {
    given(restrictionDecider)
      .when(restrict({ endsAt: inHours(48).toISOString() }))
      .then([restricted()]);
  });
  it('an end in the past, a negative or zero duration, both, no scope, no reason: refused', () => {
    given(restrictionDecider)
      .when(restrict({ endsAt: inHours(-1).toISOString() }))
      .thenThrows(RESTRICTION_MESSAGES.endInPast, 'invalid');
    given(restrictionDecider)
      .when(restrict({ endsAt: now.toISOString() }))
      .thenThrows(RESTRICTION_MESSAGES.endInPast);
    given(restrictionDecider)
      .when(restrict({ durationHours: -3 }))
      .thenThrows(RESTRICTION_MESSAGES.negativeDuration);
    given(restrictionDecider)
      .when(restrict({ durationHours: 0 }))
      .thenThrows(RESTRICTION_MESSAGES.negativeDuration);
    given(restrictionDecider)
      .when(restrict({ durationHours: 2, endsAt: inHours(3).toISOString() }))
      .thenThrows(RESTRICTION_MESSAGES.bothEnds);
    given(restrictionDecider)
      .when(restrict({ endsAt: 'demain' }))
      .thenThrows(RESTRICTION_MESSAGES.badEnd);
    given(restrictionDecider)
      .when(restrict({ scopes: [] }))
      .thenThrows(RESTRICTION_MESSAGES.noScope);
    given(restrictionDecider)
      .when(restrict({ scopes: ['like'] }))
      .thenThrows(RESTRICTION_MESSAGES.badScope);
    given(restrictionDecider)
      .when(restrict({ reason: '   ' }))
      .thenThrows(RESTRICTION_MESSAGES.reasonRequired);
    given(restrictionDecider)
      .when(restrict({ requesterIsAdmin: false }))
      .thenThrows(MODERATION_MESSAGES.adminOnly, 'forbidden');
    given(restrictionDecider)
      .when(restrict({ userId: 'admin' }))
      .thenThrows(RESTRICTION_MESSAGES.notSelf);
  });
  it('the restricted actions are refused with the restriction, its end and its reason; others are not', () => {
    const state = fold(restrictionDecider, [restricted()]);
    let caught: unknown;
    try {
      checkNotRestricted(state, 'comment', now);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect((caught as DomainError).kind).toBe('forbidden');
    expect((caught as DomainError).message).toBe(
      "Restriction en cours : tu ne peux pas commenter jusqu'au 1 décembre 2026 à 11:00. Motif : Insultes répétées",
    );
    expect(() => checkNotRestricted(state, 'upload', now)).not.toThrow();
    const forever = fold(restrictionDecider, [restricted(1, null, ['upload'])]);
    expect(() => checkNotRestricted(forever, 'upload', now)).toThrow(
      "Restriction en cours : tu ne peux pas publier des vidéos jusqu'à nouvel ordre. Motif : Insultes répétées",
    );
  });
  it('a restriction ends by itself at its end, with no event', () => {
    const state = fold(restrictionDecider, [restricted()]);
    expect(() => checkNotRestricted(state, 'message', inHours(47.9))).toThrow();
    expect(() => checkNotRestricted(state, 'message', inHours(48))).not.toThrow();
    expect(activeRestrictions(state, inHours(48))).toEqual([]);
  });
  it('an administrator lifts it; once over, lifting again is refused', () => {
    given(restrictionDecider, [restricted()])
      .when({ type: 'LiftRestriction', restrictionNo: 1, requesterIsAdmin: true, now })
      .then([lifted()]);
    given(restrictionDecider, [restricted(), lifted()])
      .when({ type: 'LiftRestriction', restrictionNo: 1, requesterIsAdmin: true, now })
      .thenThrows(RESTRICTION_MESSAGES.alreadyOver, 'conflict');
    given(restrictionDecider, [restricted()])
      .when({ type: 'LiftRestriction', restrictionNo: 1, requesterIsAdmin: true, now: inHours(49) })
      .thenThrows(RESTRICTION_MESSAGES.alreadyOver, 'conflict');
    given(restrictionDecider)
      .when({ type: 'LiftRestriction', restrictionNo: 1, requesterIsAdmin: true, now })
      .thenThrows(RESTRICTION_MESSAGES.restrictionNotFound, 'not_found');
    expect(() => checkNotRestricted(fold(restrictionDecider, [restricted(), lifted()]), 'comment', now)).not.toThrow();
  });
  it('the member appeals it like a decision; reversed, it is lifted in the same append', () => {
    given(restrictionDecider, [restricted()]).when(appeal()).then([appealed]);
    given(restrictionDecider, [restricted(), appealed])
      .when(answer('annulée'))
      .then([answered('annulée'), lifted('appeal')]);
    given(restrictionDecider, [restricted(), appealed])
      .when(answer('maintenue'))
      .then([answered('maintenue')]);
  });
  it("appeals: someone else's, a second one, on a restriction over, after six months: refused", () => {
    given(restrictionDecider, [restricted()]).when(appeal('other')).thenThrows(APPEAL_MESSAGES.notYours, 'forbidden');
    given(restrictionDecider, [restricted(), appealed])
      .when(appeal())
      .thenThrows(APPEAL_MESSAGES.alreadyAppealed, 'conflict');
    given(restrictionDecider, [restricted(), lifted()])
      .when(appeal())
      .thenThrows(APPEAL_MESSAGES.restrictionOver, 'conflict');
    given(restrictionDecider, [restricted(1, null)])
      .when(appeal('member', new Date('2027-06-01T00:00:00Z')))
      .thenThrows(APPEAL_MESSAGES.deadlinePassed(new Date('2027-05-29T10:00:00Z')), 'conflict');
    given(restrictionDecider, [restricted(), appealed])
      .when(answer('annulée', false))
      .thenThrows(MODERATION_MESSAGES.adminOnly, 'forbidden');
  });
});
