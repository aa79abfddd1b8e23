import type { Decider } from '../shared/decider';
import { conflict, forbidden, invalid, notFound } from '../shared/errors';
import type { RestrictionEvent } from './events';
import {
  APPEAL_MESSAGES,
  APPEAL_TEXT_MAX,
  RESTRICTION_MESSAGES,
  RESTRICTION_REASON_MAX,
  appealDeadline,
  checkedText,
  isRestrictionScope,
  restrictionDecisionId,
  type RestrictionScope,
  answeredAppeal,
} from './appeal-rules';
import { MODERATION_MESSAGES } from './rules';
import type { AppealState } from './video-appeal-decider';

export interface RestrictionState {
  restrictionNo: number;
  scopes: readonly RestrictionScope[];
  endsAt: string | null;
  reason: string;
  at: string;
  liftedAt: string | null;
  appeal: AppealState | null;
}

/** One member's restrictions, `restrictions-<userId>`: every one they ever had, by number. */
export type MemberRestrictionsState = {
  userId: string | null;
  restrictions: ReadonlyMap<number, RestrictionState>;
};

export type RestrictionCommand =
  | {
      type: 'RestrictMember';
      userId: string;
      requesterId: string;
      /** from the requester's user stream (role admin), looked up by the handler */
      requesterIsAdmin: boolean;
      scopes: readonly string[];
      /** either a duration in hours, or an end; neither: until lifted */
      durationHours?: number | null;
      endsAt?: string | null;
      reason: string;
      now: Date;
    }
  | { type: 'LiftRestriction'; restrictionNo: number; requesterIsAdmin: boolean; now: Date }
  | { type: 'AppealRestriction'; restrictionNo: number; requesterId: string; text: string; now: Date }
  | {
      type: 'AnswerRestrictionAppeal';
      restrictionNo: number;
      requesterIsAdmin: boolean;
      outcome: string;
      answer: string;
      now: Date;
    };

/** Does it still hold at `now`? Restrictions end by themselves: nothing needs to run at their end. */
export const isRestrictionActive = (r: RestrictionState, now: Date): boolean =>
  r.liftedAt === null && (r.endsAt === null || new Date(r.endsAt) > now);

/** The restrictions holding at `now`. */
export const activeRestrictions = (state: MemberRestrictionsState, now: Date): RestrictionState[] =>
  [...state.restrictions.values()].filter((r) => isRestrictionActive(r, now));

/**
 * The rule every restricted action checks (uploads, comments, private messages), from the member's
 * stream and the clock: 403 naming the restriction, its end and its reason. Of several holding, the
 * one ending last is named (an open-ended one first).
 */
export function checkNotRestricted(state: MemberRestrictionsState, scope: RestrictionScope, now: Date): void {
  const holding = activeRestrictions(state, now).filter((r) => r.scopes.includes(scope));
  if (holding.length === 0) return;
  const last = holding.reduce((a, b) =>
    a.endsAt === null ? a : b.endsAt === null ? b : new Date(b.endsAt) > new Date(a.endsAt) ? b : a,
  );
  throw forbidden(RESTRICTION_MESSAGES.refused(scope, last.endsAt, last.reason));
}

/** The end of a new restriction, from a duration or a date; null: until lifted. */
function endOf(command: Extract<RestrictionCommand, { type: 'RestrictMember' }>): string | null {
  const hasDuration = command.durationHours !== undefined && command.durationHours !== null;
  const hasEnd = command.endsAt !== undefined && command.endsAt !== null && command.endsAt !== '';
  if (hasDuration && hasEnd) throw invalid(RESTRICTION_MESSAGES.bothEnds);
  if (hasDuration) {
    const hours = command.durationHours!;
    if (!Number.isFinite(hours) || hours <= 0) throw invalid(RESTRICTION_MESSAGES.negativeDuration);
    return new Date(command.now.getTime() + Math.round(hours * 3_600_000)).toISOString();
  }
  if (!hasEnd) return null;
  const end = new Date(command.endsAt!);
  if (Number.isNaN(end.getTime())) throw invalid(RESTRICTION_MESSAGES.badEnd);
  if (end <= command.now) throw invalid(RESTRICTION_MESSAGES.endInPast);
  return end.toISOString();
}

/**
 * Restrictions of a member: an administrator restricts them from uploading, commenting and/or writing
 * private messages, for a time or until lifted, with a reason; lifts it; the member contests it once
 * within six months while it holds; an administrator answers (reversed: lifted in the same append).
 */
export const restrictionDecider: Decider<RestrictionCommand, RestrictionEvent, MemberRestrictionsState> = {
  initialState: () => ({ userId: null, restrictions: new Map() }),
  evolve(state, event) {
    const restrictions = new Map(state.restrictions);
    switch (event.type) {
      case 'MemberRestricted': {
        const d = event.data;
        restrictions.set(d.restrictionNo, {
          restrictionNo: d.restrictionNo,
          scopes: d.scopes,
          endsAt: d.endsAt,
          reason: d.reason,
          at: d.at,
          liftedAt: null,
          appeal: null,
        });
        return { userId: d.userId, restrictions };
      }
      case 'MemberRestrictionLifted': {
        const r = restrictions.get(event.data.restrictionNo);
        if (r) restrictions.set(r.restrictionNo, { ...r, liftedAt: event.data.at });
        return { ...state, restrictions };
      }
      case 'DecisionAppealed':
      case 'AppealAnswered': {
        const r = restrictions.get(event.data.decisionNo);
        if (!r) return state;
        const appeal: AppealState =
          event.type === 'DecisionAppealed'
            ? { at: event.data.at, answered: null }
            : { at: r.appeal?.at ?? event.data.at, answered: event.data.outcome };
        restrictions.set(r.restrictionNo, { ...r, appeal });
        return { ...state, restrictions };
      }
      default:
        return state;
    }
  },
  decide(command, state) {
    const now = command.now;
    if (command.type === 'RestrictMember') {
      if (!command.requesterIsAdmin) throw forbidden(MODERATION_MESSAGES.adminOnly);
      if (command.userId === command.requesterId) throw invalid(RESTRICTION_MESSAGES.notSelf);
      if (command.scopes.length === 0) throw invalid(RESTRICTION_MESSAGES.noScope);
      if (!command.scopes.every(isRestrictionScope)) throw invalid(RESTRICTION_MESSAGES.badScope);
      const endsAt = endOf(command);
      const reason = checkedText(
        command.reason,
        RESTRICTION_REASON_MAX,
        RESTRICTION_MESSAGES.reasonRequired,
        RESTRICTION_MESSAGES.reasonTooLong,
      );
      // in the product's order, once each
      const scopes = (['upload', 'comment', 'message'] as const).filter((s) => command.scopes.includes(s));
      return [
        {
          type: 'MemberRestricted',
          data: {
            userId: command.userId,
            restrictionNo: state.restrictions.size + 1,
            scopes,
            endsAt,
            reason,
            at: now.toISOString(),
          },
        },
      ];
    }
    const restriction = state.restrictions.get(command.restrictionNo);
    const userId = state.userId ?? '';
    if (command.type === 'LiftRestriction') {
      if (!command.requesterIsAdmin) throw forbidden(MODERATION_MESSAGES.adminOnly);
      if (!restriction) throw notFound(RESTRICTION_MESSAGES.restrictionNotFound);
      if (!isRestrictionActive(restriction, now)) throw conflict(RESTRICTION_MESSAGES.alreadyOver);
      return [
        {
          type: 'MemberRestrictionLifted',
          data: { userId, restrictionNo: restriction.restrictionNo, via: 'admin', at: now.toISOString() },
        },
      ];
    }
    const ref = {
      decisionId: restrictionDecisionId(userId, command.restrictionNo),
      subjectId: userId,
      videoId: null,
      decisionNo: command.restrictionNo,
    };
    if (command.type === 'AppealRestriction') {
      if (!restriction) throw notFound(APPEAL_MESSAGES.decisionNotFound);
      if (command.requesterId !== userId) throw forbidden(APPEAL_MESSAGES.notYours);
      if (restriction.appeal) throw conflict(APPEAL_MESSAGES.alreadyAppealed);
      if (!isRestrictionActive(restriction, now)) throw conflict(APPEAL_MESSAGES.restrictionOver);
      const deadline = appealDeadline(restriction.at);
      if (now > deadline) throw conflict(APPEAL_MESSAGES.deadlinePassed(deadline));
      const text = checkedText(
        command.text,
        APPEAL_TEXT_MAX,
        APPEAL_MESSAGES.textRequired,
        APPEAL_MESSAGES.textTooLong,
      );
      return [{ type: 'DecisionAppealed', data: { ...ref, text, at: now.toISOString() } }];
    }
    const answered = answeredAppeal(restriction?.appeal, command, ref, now);
    const outcome = answered.data.outcome;
    // answeredAppeal found its appeal, so the restriction is there
    const answeredOn = restriction!;
    if (outcome === 'maintenue' || !isRestrictionActive(answeredOn, now)) return [answered];
    return [
      answered,
      {
        type: 'MemberRestrictionLifted',
        data: { userId, restrictionNo: answeredOn.restrictionNo, via: 'appeal', at: now.toISOString() },
      },
    ];
  },
};
