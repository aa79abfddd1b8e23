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
  type RestrictionScope,
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
  const r =
    ref.kind === 'video'
      ? await handleCommand(
          events,
          videoStream(ref.videoId),
          videoAppealDecider,
          { type: 'AppealVideoDecision', decisionNo: ref.decisionNo, ...base },
          ctx,
        )
      : await handleCommand(
          events,
          restrictionsStream(ref.userId),
          restrictionDecider,
          { type: 'AppealRestriction', restrictionNo: ref.decisionNo, ...base },
          ctx,
        );
  return { position: r.position };
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
  const r =
    ref.kind === 'video'
      ? await handleCommand(
          events,
          videoStream(ref.videoId),
          videoAppealDecider,
          {
            type: 'AnswerVideoAppeal',
            decisionNo: ref.decisionNo,
            requesterId,
            requesterIsAdmin,
            ...input,
            now: ctx.now,
          },
          ctx,
        )
      : await handleCommand(
          events,
          restrictionsStream(ref.userId),
          restrictionDecider,
          { type: 'AnswerRestrictionAppeal', restrictionNo: ref.decisionNo, requesterIsAdmin, ...input, now: ctx.now },
          ctx,
        );
  return { position: r.position };
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
