import {
  APPEAL_MESSAGES,
  RESTRICTION_MESSAGES,
  checkNotRestricted,
  notFound,
  parseDecisionId,
  restrictionDecider,
  restrictionsStream,
  videoAppealDecider,
  videoStream,
  type DecisionRef,
  type RestrictionCommand,
  type RestrictionScope,
  type VideoAppealCommand,
} from '@evo/domain';
import { handleCommand, loadState, type CommandContext, type EventStore } from '@evo/infra';
import { findMemberBy, isAdminByStream } from '../identity/members';

/**
 * Moderation decisions on the command side (issue 32): appeals and their answers, decided on the
 * stream of what they contest (`video-<id>`, `restrictions-<userId>`), and restrictions. Every
 * rule is the deciders'; this only finds the streams and who asks.
 */

const decisionOf = (decisionId: string) => {
  const ref = parseDecisionId(decisionId);
  if (!ref) throw notFound(APPEAL_MESSAGES.decisionNotFound);
  return ref;
};

/**
 * Decide on the stream of the decision `ref` names: the video's (`video-<id>`) for a decision on a
 * video, the member's restrictions (`restrictions-<userId>`) for a restriction; each command is
 * given the decision's number.
 */
async function onDecisionStream(
  events: EventStore,
  ref: DecisionRef,
  commands: {
    video: (decisionNo: number) => VideoAppealCommand;
    restriction: (restrictionNo: number) => RestrictionCommand;
  },
  ctx: CommandContext,
) {
  const r =
    ref.kind === 'video'
      ? await handleCommand(events, videoStream(ref.videoId), videoAppealDecider, commands.video(ref.decisionNo), ctx)
      : await handleCommand(
          events,
          restrictionsStream(ref.userId),
          restrictionDecider,
          commands.restriction(ref.decisionNo),
          ctx,
        );
  return { position: r.position };
}

/** The member contests a decision about them with their own text. */
export async function appealDecision(
  events: EventStore,
  requesterId: string,
  decisionId: string,
  text: string,
  ctx: CommandContext,
) {
  const ref = decisionOf(decisionId);
  const base = { requesterId, text, now: ctx.now };
  return onDecisionStream(
    events,
    ref,
    {
      video: (decisionNo) => ({ type: 'AppealVideoDecision', decisionNo, ...base }),
      restriction: (restrictionNo) => ({ type: 'AppealRestriction', restrictionNo, ...base }),
    },
    ctx,
  );
}

/** An administrator keeps or reverses a decision that was appealed, with an answer to the member. */
export async function answerAppeal(
  events: EventStore,
  requesterId: string,
  decisionId: string,
  input: { outcome: string; answer: string },
  ctx: CommandContext,
) {
  const ref = decisionOf(decisionId);
  const requesterIsAdmin = await isAdminByStream(events, requesterId);
  return onDecisionStream(
    events,
    ref,
    {
      video: (decisionNo) => ({
        type: 'AnswerVideoAppeal',
        decisionNo,
        requesterId,
        requesterIsAdmin,
        ...input,
        now: ctx.now,
      }),
      restriction: (restrictionNo) => ({
        type: 'AnswerRestrictionAppeal',
        restrictionNo,
        requesterIsAdmin,
        ...input,
        now: ctx.now,
      }),
    },
    ctx,
  );
}

export interface RestrictInput {
  email: string;
  scopes: readonly string[];
  durationHours?: number | null;
  endsAt?: string | null;
  reason: string;
}

/** An administrator restricts a member (named by email). */
export async function restrictMember(
  events: EventStore,
  requesterId: string,
  input: RestrictInput,
  ctx: CommandContext,
) {
  const [requesterIsAdmin, member] = await Promise.all([
    isAdminByStream(events, requesterId),
    findMemberBy(events, 'email', input.email),
  ]);
  if (!member) throw notFound(RESTRICTION_MESSAGES.memberNotFound);
  const r = await handleCommand(
    events,
    restrictionsStream(member.userId),
    restrictionDecider,
    {
      type: 'RestrictMember',
      userId: member.userId,
      requesterId,
      requesterIsAdmin,
      scopes: input.scopes,
      durationHours: input.durationHours,
      endsAt: input.endsAt,
      reason: input.reason,
      now: ctx.now,
    },
    ctx,
  );
  const made = r.events[0];
  return {
    position: r.position,
    id: made?.type === 'MemberRestricted' ? `restriction-${member.userId}-${made.data.restrictionNo}` : '',
  };
}

/** An administrator lifts a restriction before its end. */
export async function liftRestriction(
  events: EventStore,
  requesterId: string,
  decisionId: string,
  ctx: CommandContext,
) {
  const ref = parseDecisionId(decisionId);
  if (ref?.kind !== 'restriction') throw notFound(RESTRICTION_MESSAGES.restrictionNotFound);
  const requesterIsAdmin = await isAdminByStream(events, requesterId);
  const r = await handleCommand(
    events,
    restrictionsStream(ref.userId),
    restrictionDecider,
    { type: 'LiftRestriction', restrictionNo: ref.decisionNo, requesterIsAdmin, now: ctx.now },
    ctx,
  );
  return { position: r.position };
}

/**
 * The rule of every restricted action (uploads, comments, private messages), from the member's
 * `restrictions-<userId>` stream and the clock: 403 naming the restriction, its end and its reason.
 */
export async function assertNotRestricted(events: EventStore, userId: string, scope: RestrictionScope, now: Date) {
  const { state } = await loadState(events, restrictionsStream(userId), restrictionDecider);
  checkNotRestricted(state, scope, now);
}
