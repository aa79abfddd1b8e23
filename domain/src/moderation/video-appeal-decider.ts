import type { Decider } from '../shared/decider';
import { conflict, forbidden, notFound } from '../shared/errors';
import type { VideoVisibility, VideoStreamEvent } from '../videos/video-decider';
import {
  APPEAL_MESSAGES,
  APPEAL_TEXT_MAX,
  appealDeadline,
  checkedText,
  videoDecisionId,
  type AppealOutcome,
  answeredAppeal,
} from './appeal-rules';

/** An appeal as its decision remembers it. */
export interface AppealState {
  at: string;
  answered: AppealOutcome | null;
}

export interface VideoDecisionState {
  decisionNo: number;
  /** what the decision did, and the visibility it replaced (a reversal restores it) */
  visibility: VideoVisibility;
  previous: VideoVisibility;
  at: string;
  /** still what holds: no later visibility change (nor the owner's own deletion) since */
  inForce: boolean;
  appeal: AppealState | null;
}

export type VideoAppealState = {
  videoId: number;
  ownerId: string | null;
  decisions: ReadonlyMap<number, VideoDecisionState>;
};

export type VideoAppealCommand =
  | { type: 'AppealVideoDecision'; decisionNo: number; requesterId: string; text: string; now: Date }
  | {
      type: 'AnswerVideoAppeal';
      decisionNo: number;
      requesterId: string;
      /** from the requester's user stream (role admin), looked up by the handler */
      requesterIsAdmin: boolean;
      outcome: string;
      answer: string;
      now: Date;
    };

const noLongerInForce = (decisions: ReadonlyMap<number, VideoDecisionState>) =>
  new Map([...decisions].map(([n, d]) => [n, d.inForce ? { ...d, inForce: false } : d]));

/**
 * The moderation decisions on one video and the appeals against them: it folds `video-<id>` (the
 * video's own decider decides its life). A decision is an administrator's hide or delete (an event
 * with a decisionNo); any later visibility change, or the owner's own deletion, ends it. The author
 * contests a decision once, within six months, while it holds; an administrator answers: kept, or
 * reversed, in which case the video goes back to the visibility the decision replaced, in the same
 * append.
 */
export const videoAppealDecider: Decider<VideoAppealCommand, VideoStreamEvent, VideoAppealState> = {
  initialState: () => ({ videoId: 0, ownerId: null, decisions: new Map() }),
  evolve(state, event) {
    switch (event.type) {
      case 'VideoUploaded':
        return { ...state, videoId: event.data.videoId, ownerId: event.data.ownerId };
      case 'VideoVisibilityChanged':
      case 'VideoDeleted': {
        const decisions = noLongerInForce(state.decisions);
        const d = event.data;
        if (d.decisionNo !== undefined && d.at !== undefined) {
          decisions.set(d.decisionNo, {
            decisionNo: d.decisionNo,
            visibility: event.type === 'VideoDeleted' ? 'supprimée' : event.data.status,
            previous: d.previousStatus ?? 'publique',
            at: d.at,
            inForce: true,
            appeal: null,
          });
        }
        return { ...state, decisions };
      }
      case 'DecisionAppealed':
      case 'AppealAnswered': {
        const decision = state.decisions.get(event.data.decisionNo);
        if (!decision) return state;
        const appeal: AppealState =
          event.type === 'DecisionAppealed'
            ? { at: event.data.at, answered: null }
            : { at: decision.appeal?.at ?? event.data.at, answered: event.data.outcome };
        const decisions = new Map(state.decisions);
        decisions.set(decision.decisionNo, { ...decision, appeal });
        return { ...state, decisions };
      }
      default:
        return state;
    }
  },
  decide(command, state) {
    const decision = state.decisions.get(command.decisionNo);
    const ref = {
      decisionId: videoDecisionId(state.videoId, command.decisionNo),
      subjectId: state.ownerId ?? '',
      videoId: state.videoId,
      decisionNo: command.decisionNo,
    };
    if (command.type === 'AppealVideoDecision') {
      if (!decision || !state.ownerId) throw notFound(APPEAL_MESSAGES.decisionNotFound);
      if (command.requesterId !== state.ownerId) throw forbidden(APPEAL_MESSAGES.notYours);
      if (decision.appeal) throw conflict(APPEAL_MESSAGES.alreadyAppealed);
      if (!decision.inForce) throw conflict(APPEAL_MESSAGES.noLongerInForce);
      const deadline = appealDeadline(decision.at);
      if (command.now > deadline) throw conflict(APPEAL_MESSAGES.deadlinePassed(deadline));
      const text = checkedText(
        command.text,
        APPEAL_TEXT_MAX,
        APPEAL_MESSAGES.textRequired,
        APPEAL_MESSAGES.textTooLong,
      );
      return [{ type: 'DecisionAppealed', data: { ...ref, text, at: command.now.toISOString() } }];
    }
    const answered = answeredAppeal(decision?.appeal, command, ref, command.now);
    const outcome = answered.data.outcome;
    // answeredAppeal found its appeal, so the decision is there
    const answeredOn = decision!;
    // a decision another one replaced since is not undone: the later decision holds
    if (outcome === 'maintenue' || !answeredOn.inForce) return [answered];
    return [
      answered,
      {
        type: 'VideoVisibilityChanged',
        data: { videoId: state.videoId, status: answeredOn.previous, changedBy: command.requesterId },
      },
    ];
  },
};
