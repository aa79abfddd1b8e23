import {
  appealDeadline,
  positionKey,
  positionToString,
  restrictionDecisionId,
  videoDecisionId,
  type RecordedAppEvent,
} from '@evo/domain';
import type { Doc, ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { goneMember } from '../runtime/member-gone';
import { eventTypesOf, memberCopies, shownAs, videoCopies } from '../runtime/own-copies';
import { applyOnce } from '../runtime/write-once';

export const MODERATION_DECISIONS = 'moderation_decisions';

/**
 * One moderation decision about a member (issue 32): an administrator's hide or delete of their
 * video, or a restriction; with its appeal. Shaped for the member's list (by subject), the appeals
 * queue (pending, oldest first) and the active restrictions (not lifted; the end is compared with
 * the clock when read: restrictions end by themselves).
 */
export interface DecisionDoc extends Doc {
  /** `video-<videoId>-<n>` or `restriction-<userId>-<n>` */
  _id: string;
  kind: 'video' | 'restriction';
  subject_id: string;
  subject_pseudo: string;
  subject_email: string;
  video_id: number | null;
  video_title: string | null;
  action: string | null;
  scopes: string[];
  ends_at: string | null;
  lifted_at: string | null;
  reason: string;
  decided_at: string;
  /** the decision's log position (fixed width): only later visibility changes end it */
  decided_pos: string;
  decided_by: string;
  appealable_until: string;
  /** a video decision: not replaced by a later visibility change; a restriction: not lifted */
  in_force: boolean;
  appeal_text: string | null;
  appeal_at: string | null;
  /** null, en_attente, maintenue or annulée */
  appeal_status: string | null;
  appeal_answer: string | null;
  answered_at: string | null;
  answered_by: string | null;
}

/** the members decided about and the administrators deciding, and the videos' titles (the projector's own copies) */
const members = memberCopies('decision_members', ['email', 'pseudo']);
const videos = videoCopies('decision_videos', { titles: true });

const pseudoOf = async (store: ReadStore, id: string) => (await members.find(store, id))?.pseudo ?? id;

/** A decision's date, position, administrator and last day of appeal, from the event that made it. */
const decidedBy = async (store: ReadStore, event: RecordedAppEvent, at: string) => ({
  decided_at: at,
  decided_pos: positionKey(event.position),
  decided_by: await pseudoOf(store, event.metadata.userId ?? ''),
  appealable_until: appealDeadline(at).toISOString(),
});

/** A new decision is not appealed yet. */
const NOT_APPEALED = {
  appeal_text: null,
  appeal_at: null,
  appeal_status: null,
  appeal_answer: null,
  answered_at: null,
  answered_by: null,
};

/** Decisions and appeals; pushes 'moderation:changed' to the member concerned. */
export const decisionsProjector: Projector = {
  name: 'moderation-decisions',
  collections: [MODERATION_DECISIONS, members.collection, videos.collection],
  eventTypes: eventTypesOf(
    [
      'VideoVisibilityChanged',
      'VideoDeleted',
      'DecisionAppealed',
      'AppealAnswered',
      'MemberRestricted',
      'MemberRestrictionLifted',
    ],
    members.eventTypes,
    videos.eventTypes,
  ),
  indexes: {
    [MODERATION_DECISIONS]: [
      { key: { subject_id: 1, decided_at: -1 } },
      { key: { appeal_status: 1, appeal_at: 1 } },
      { key: { kind: 1, in_force: 1 } },
      { key: { video_id: 1 } },
    ],
    [videos.collection]: videos.indexes,
  },
  async project(event, store, ctx) {
    await members.project(event, store);
    await videos.project(event, store);
    const decisions = store.collection<DecisionDoc>(MODERATION_DECISIONS);
    const gone = goneMember(event);
    // a deleted member's decisions, restrictions and appeals go with them
    if (gone) return void (await decisions.deleteMany({ subject_id: gone }));
    const admin = event.metadata.userId ?? '';
    let subjectId: string | undefined;
    switch (event.type) {
      case 'VideoVisibilityChanged':
      case 'VideoDeleted': {
        const d = event.data;
        const id = d.decisionNo !== undefined ? videoDecisionId(d.videoId, d.decisionNo) : undefined;
        // any later visibility change (a reversal, another decision, the owner's deletion) ends the earlier ones
        await decisions.updateMany(
          { kind: 'video', video_id: d.videoId, in_force: true, decided_pos: { $lt: positionKey(event.position) } },
          { $set: { in_force: false } },
        );
        if (!id || d.at === undefined || !d.reason) break;
        const ownerId = d.ownerId ?? '';
        const owner = await members.find(store, ownerId);
        const video = await videos.find(store, d.videoId);
        const created = await applyOnce(
          decisions,
          id,
          event.position,
          {
            $set: {
              kind: 'video',
              subject_id: ownerId,
              ...shownAs('subject', owner, ['pseudo', 'email']),
              video_id: d.videoId,
              video_title: video?.title ?? '',
              action: event.type === 'VideoDeleted' ? 'supprimée' : event.data.status,
              scopes: [],
              ends_at: null,
              lifted_at: null,
              reason: d.reason,
              ...(await decidedBy(store, event, d.at)),
            },
            $setOnInsert: { in_force: true, ...NOT_APPEALED },
          },
          { upsert: true },
        );
        if (created) subjectId = ownerId;
        break;
      }
      case 'MemberRestricted': {
        const d = event.data;
        const member = await members.find(store, d.userId);
        const created = await applyOnce(
          decisions,
          restrictionDecisionId(d.userId, d.restrictionNo),
          event.position,
          {
            $set: {
              kind: 'restriction',
              subject_id: d.userId,
              ...shownAs('subject', member, ['pseudo', 'email']),
              video_id: null,
              video_title: null,
              action: null,
              scopes: [...d.scopes],
              ends_at: d.endsAt,
              reason: d.reason,
              ...(await decidedBy(store, event, d.at)),
            },
            $setOnInsert: { in_force: true, lifted_at: null, ...NOT_APPEALED },
          },
          { upsert: true },
        );
        if (created) subjectId = d.userId;
        break;
      }
      case 'MemberRestrictionLifted': {
        const d = event.data;
        const id = restrictionDecisionId(d.userId, d.restrictionNo);
        if (await applyOnce(decisions, id, event.position, { $set: { in_force: false, lifted_at: d.at } }))
          subjectId = d.userId;
        break;
      }
      case 'DecisionAppealed': {
        const d = event.data;
        const applied = await applyOnce(decisions, d.decisionId, event.position, {
          $set: { appeal_text: d.text, appeal_at: d.at, appeal_status: 'en_attente' },
        });
        if (applied) subjectId = d.subjectId;
        break;
      }
      case 'AppealAnswered': {
        const d = event.data;
        const applied = await applyOnce(decisions, d.decisionId, event.position, {
          $set: {
            appeal_status: d.outcome,
            appeal_answer: d.answer,
            answered_at: d.at,
            answered_by: await pseudoOf(store, admin),
          },
        });
        if (applied) subjectId = d.subjectId;
        break;
      }
    }
    if (subjectId && ctx.live)
      ctx.push(`user:${subjectId}`, 'moderation:changed', { position: positionToString(event.position) });
  },
};
