import {
  RESTRICTION_SCOPES,
  checkNotRestricted,
  isRestrictionActive,
  type MemberRestrictionsState,
  type RestrictionScope,
  type RestrictionState,
} from '@evo/domain';
import type {
  ActiveRestrictionView,
  AdminDecisionView,
  AppealView,
  DecisionView,
  MyModerationAnswer,
} from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import { MODERATION_DECISIONS, type DecisionDoc } from './decisions-projector';

/** at most this many decisions in one list */
const LIST_LIMIT = 500;

const restrictionOf = (d: DecisionDoc): RestrictionState => ({
  restrictionNo: Number(d._id.slice(d._id.lastIndexOf('-') + 1)),
  scopes: d.scopes as RestrictionScope[],
  endsAt: d.ends_at,
  reason: d.reason,
  at: d.decided_at,
  liftedAt: d.lifted_at,
  appeal: null,
});

/** Still holding at `now`: a video decision not replaced, a restriction neither lifted nor ended. */
const holds = (d: DecisionDoc, now: Date) =>
  d.in_force && (d.kind !== 'restriction' || isRestrictionActive(restrictionOf(d), now));

function appealOf(d: DecisionDoc): AppealView | null {
  if (!d.appeal_status || d.appeal_text === null || d.appeal_at === null) return null;
  return {
    text: d.appeal_text,
    at: d.appeal_at,
    status: d.appeal_status as AppealView['status'],
    answer: d.appeal_answer,
    answered_at: d.answered_at,
  };
}

function decisionView(d: DecisionDoc, now: Date): DecisionView {
  const inForce = holds(d, now);
  return {
    id: d._id,
    kind: d.kind,
    video_id: d.video_id,
    video_title: d.video_title,
    action: d.action,
    scopes: d.scopes as RestrictionScope[],
    ends_at: d.ends_at,
    reason: d.reason,
    decided_at: d.decided_at,
    in_force: inForce,
    appealable_until: d.appealable_until,
    can_appeal: inForce && !d.appeal_status && now <= new Date(d.appealable_until),
    appeal: appealOf(d),
  };
}

const adminView = (d: DecisionDoc, now: Date): AdminDecisionView => ({
  ...decisionView(d, now),
  subject_id: d.subject_id,
  subject_pseudo: d.subject_pseudo,
  subject_email: d.subject_email,
  decided_by: d.decided_by,
  answered_by: d.answered_by,
});

/** The 403 text of each restricted action, worded by the domain's own rule (the same as the server's refusal). */
function blockedBy(restrictions: DecisionDoc[], now: Date): MyModerationAnswer['blocked'] {
  const state: MemberRestrictionsState = {
    userId: null,
    restrictions: new Map(restrictions.map((d) => [restrictionOf(d).restrictionNo, restrictionOf(d)])),
  };
  const blocked: MyModerationAnswer['blocked'] = {};
  for (const scope of RESTRICTION_SCOPES) {
    try {
      checkNotRestricted(state, scope, now);
    } catch (e) {
      blocked[scope] = (e as Error).message;
    }
  }
  return blocked;
}

export function decisionQueries(read: ReadStore) {
  const decisions = read.collection<DecisionDoc>(MODERATION_DECISIONS);
  return {
    /** the member's decisions, newest first, their restrictions holding now, and what they may not do */
    async mine(userId: string, now: Date): Promise<MyModerationAnswer> {
      const docs = await decisions.find({ subject_id: userId }, { sort: { decided_at: -1 }, limit: LIST_LIMIT });
      const active = docs.filter((d) => d.kind === 'restriction' && holds(d, now));
      return {
        decisions: docs.map((d) => decisionView(d, now)),
        restrictions: active.map((d): ActiveRestrictionView => ({
          id: d._id,
          scopes: d.scopes as RestrictionScope[],
          ends_at: d.ends_at,
          reason: d.reason,
        })),
        blocked: blockedBy(active, now),
      };
    },
    /** appeals waiting for an answer, oldest first */
    async appealsQueue(now: Date): Promise<AdminDecisionView[]> {
      const docs = await decisions.find({ appeal_status: 'en_attente' }, { sort: { appeal_at: 1 }, limit: LIST_LIMIT });
      return docs.map((d) => adminView(d, now));
    },
    /** restrictions holding now (compared with the clock), ending soonest first, open-ended last */
    async activeRestrictions(now: Date): Promise<AdminDecisionView[]> {
      const docs = await decisions.find({ kind: 'restriction', in_force: true }, { limit: LIST_LIMIT * 4 });
      return docs
        .filter((d) => holds(d, now))
        .sort((a, b) =>
          a.ends_at === b.ends_at
            ? a.decided_at.localeCompare(b.decided_at)
            : a.ends_at === null
              ? 1
              : b.ends_at === null
                ? -1
                : a.ends_at.localeCompare(b.ends_at),
        )
        .slice(0, LIST_LIMIT)
        .map((d) => adminView(d, now));
    },
    /** one decision (the back-office's answer to a decision it just changed) */
    async decision(id: string, now: Date): Promise<AdminDecisionView | null> {
      const d = await decisions.findOne({ _id: id });
      return d ? adminView(d, now) : null;
    },
  };
}
export type DecisionQueries = ReturnType<typeof decisionQueries>;
