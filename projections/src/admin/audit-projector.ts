import {
  APPEAL_OUTCOME_LABELS,
  REPORT_STATUS_LABELS,
  RESTRICTION_SCOPE_LABELS,
  frenchDateTime,
  positionKey,
  type RecordedAppEvent,
} from '@evo/domain';
import type { Doc, ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { goneMember } from '../runtime/member-gone';
import { memberCopies } from '../runtime/own-copies';
import { insertOnce } from '../runtime/write-once';

export const ADMIN_AUDIT = 'admin_audit';

/** One administrator action (who, when, what, on what). */
export interface AuditDoc extends Doc {
  /** the event id */
  _id: string;
  at: string;
  pos_key: string;
  event_type: string;
  admin_id: string;
  admin_email: string;
  admin_pseudo: string;
  /** short French label */
  action: string;
  /** what it was done to: 'vidéo #12', 'cadeau #3', a member's email, ... */
  target: string;
  details: string;
  /**
   * the members the line names (the administrator, the member acted on) and their emails then: a
   * deleted member's email is replaced by their pseudonymous id (`membre <id>`) wherever it appears
   */
  named_ids: string[];
  named_emails: string[];
}

type Entry = Pick<AuditDoc, 'action' | 'target' | 'details'>;

const giftDetails = (d: { name: string; emoji: string; coinCost: number; imageUrl: string }) =>
  `${`${d.emoji} ${d.name}`.trim()} — ${d.coinCost} coins${d.imageUrl ? ` — ${d.imageUrl}` : ''}`;

/** the administrators and the members they act on (the projector's own copy: it never reads `users`) */
const members = memberCopies('audit_members', ['email', 'pseudo']);

async function emailOf(store: ReadStore, userId: string): Promise<string> {
  return (await members.find(store, userId))?.email ?? userId;
}

/** a hide or delete is a decision its author may contest (issue 32): its number and reason */
const decisionDetails = (d: { decisionNo?: number; reason?: string }) =>
  d.decisionNo !== undefined ? ` — Décision n° ${d.decisionNo}${d.reason ? ` — Motif : ${d.reason}` : ''}` : '';

const decisionTarget = (d: { videoId: number | null; decisionNo: number }) =>
  d.videoId !== null ? `décision n° ${d.decisionNo} sur la vidéo #${d.videoId}` : `restriction n° ${d.decisionNo}`;

/** The member an administrator's event acts on, if any. */
function namedMember(event: RecordedAppEvent): string | undefined {
  const d = event.data as Record<string, unknown>;
  for (const field of ['userId', 'ownerId', 'subjectId'])
    if (typeof d[field] === 'string' && d[field]) return d[field] as string;
  return undefined;
}

/** A deleted member's lines stay (the administrators' record), naming them by their id only. */
async function pseudonymise(store: ReadStore, memberId: string): Promise<void> {
  const audit = store.collection<AuditDoc>(ADMIN_AUDIT);
  const alias = `membre ${memberId}`;
  for (const line of await audit.find({ named_ids: memberId })) {
    const email = line.named_emails[line.named_ids.indexOf(memberId)];
    const swap = (text: string) => (email ? text.split(email).join(alias) : text);
    await audit.updateOne(
      { _id: line._id },
      {
        $set: {
          target: swap(line.target),
          details: swap(line.details),
          ...(line.admin_id === memberId ? { admin_email: '', admin_pseudo: alias } : {}),
          named_emails: line.named_emails.map((e, i) => (line.named_ids[i] === memberId ? '' : e)),
        },
      },
    );
  }
}

/** The audit line of an administrator's event; undefined for anything else. */
async function entryOf(event: RecordedAppEvent, store: ReadStore): Promise<Entry | undefined> {
  switch (event.type) {
    case 'ReportStatusChanged': {
      const d = event.data;
      return {
        action: 'Signalement mis à jour',
        target: `signalement #${d.reportId} (vidéo #${d.videoId})`,
        details: `Statut : ${REPORT_STATUS_LABELS[d.status] ?? d.status}${d.adminResponse ? ` — Réponse : ${d.adminResponse}` : d.previousAdminResponse ? ' — Réponse retirée' : ''}`,
      };
    }
    case 'VideoVisibilityChanged':
      return {
        action: 'Visibilité modifiée',
        target: `vidéo #${event.data.videoId}`,
        details: `Visibilité : ${event.data.status}${decisionDetails(event.data)}`,
      };
    case 'VideoDeleted':
      // an owner deleting their own video is not an administrator's action
      if (event.data.deletedBy === event.data.ownerId) return undefined;
      return {
        action: 'Vidéo supprimée',
        target: `vidéo #${event.data.videoId}`,
        details: `Vidéo de ${await emailOf(store, event.data.ownerId)}${decisionDetails(event.data)}`,
      };
    // decisions and appeals (issue 32): the actor is the member for an appeal, the administrator otherwise
    case 'DecisionAppealed':
      return {
        action: 'Contestation déposée',
        target: decisionTarget(event.data),
        details: `Texte : ${event.data.text}`,
      };
    case 'AppealAnswered':
      return {
        action: 'Contestation traitée',
        target: decisionTarget(event.data),
        details: `${APPEAL_OUTCOME_LABELS[event.data.outcome]} — Réponse : ${event.data.answer}`,
      };
    case 'MemberRestricted':
      return {
        action: 'Membre restreint',
        target: await emailOf(store, event.data.userId),
        details: `Interdit de ${event.data.scopes.map((s) => RESTRICTION_SCOPE_LABELS[s]).join(', ')} ${
          event.data.endsAt ? `jusqu'au ${frenchDateTime(event.data.endsAt)}` : "jusqu'à levée"
        } — Motif : ${event.data.reason}`,
      };
    case 'MemberRestrictionLifted':
      return {
        action: 'Restriction levée',
        target: await emailOf(store, event.data.userId),
        details: `Restriction n° ${event.data.restrictionNo}${event.data.via === 'appeal' ? ' (contestation acceptée)' : ''}`,
      };
    case 'GiftAdded':
      return { action: 'Cadeau ajouté', target: `cadeau #${event.data.giftId}`, details: giftDetails(event.data) };
    case 'GiftUpdated':
      return { action: 'Cadeau modifié', target: `cadeau #${event.data.giftId}`, details: giftDetails(event.data) };
    case 'GiftRemoved':
      return { action: 'Cadeau supprimé', target: `cadeau #${event.data.giftId}`, details: '' };
    case 'AdminRoleGranted':
      return { action: 'Rôle administrateur accordé', target: await emailOf(store, event.data.userId), details: '' };
    case 'AdminRoleRevoked':
      return { action: 'Rôle administrateur retiré', target: await emailOf(store, event.data.userId), details: '' };
    case 'PasswordChanged':
      // a member changing their own password is not an administrator's action
      if (event.metadata.userId === event.data.userId) return undefined;
      return { action: 'Mot de passe remplacé', target: await emailOf(store, event.data.userId), details: '' };
    case 'LoginLockCleared':
      return {
        action: 'Connexion débloquée',
        target: await emailOf(store, event.data.userId),
        details: `${event.data.failures} échec(s) effacé(s)`,
      };
    case 'PasswordResetIssued':
      // a member asking for their own link is not an administrator's action
      if (event.data.issuedBy !== 'admin') return undefined;
      return {
        action: 'Lien de réinitialisation du mot de passe créé',
        target: await emailOf(store, event.data.userId),
        details: `Valable jusqu'au ${event.data.expiresAt}`,
      };
    case 'ProjectionsRebuildRequested':
      return { action: 'Reconstruction des projections lancée', target: 'projections', details: '' };
    case 'DataExportRequested':
      // a member asking for their own archive is not an administrator's action
      if (!event.data.byAdmin) return undefined;
      return {
        action: 'Archive « Mes données » demandée pour un membre',
        target: await emailOf(store, event.data.memberId),
        details: `Archive ${event.data.exportId}`,
      };
    default:
      return undefined;
  }
}

/**
 * The administrators' actions log: report decisions, visibility changes, deletions of others'
 * videos, catalogue edits, role grants and revocations, rebuilds, and the passwords the operator
 * applied at start (ADMIN_PASSWORD, DEMO_PASSWORD: actor "system"). The administrator is the event's
 * `metadata.userId` (system actions without one, like the start-up seed, are not listed). One line
 * per event, inserted once under the event id.
 */
export const auditProjector: Projector = {
  name: 'admin-audit',
  collections: [ADMIN_AUDIT, members.collection],
  eventTypes: [
    'ReportStatusChanged',
    'VideoVisibilityChanged',
    'VideoDeleted',
    'GiftAdded',
    'GiftUpdated',
    'GiftRemoved',
    'AdminRoleGranted',
    'AdminRoleRevoked',
    'PasswordChanged',
    'LoginLockCleared',
    'PasswordResetIssued',
    'ProjectionsRebuildRequested',
    'DecisionAppealed',
    'AppealAnswered',
    'MemberRestricted',
    'MemberRestrictionLifted',
    'DataExportRequested',
    ...members.eventTypes,
  ],
  indexes: { [ADMIN_AUDIT]: [{ key: { pos_key: -1 } }, { key: { named_ids: 1 } }] },
  async project(event, store) {
    await members.project(event, store);
    const gone = goneMember(event);
    if (gone) return pseudonymise(store, gone);
    const adminId = event.metadata.userId;
    if (!adminId) return;
    const entry = await entryOf(event, store);
    if (!entry) return;
    const admin = await members.find(store, adminId);
    const subject = namedMember(event);
    const named = [...new Set([adminId, ...(subject ? [subject] : [])])];
    await insertOnce(store.collection<AuditDoc>(ADMIN_AUDIT), {
      _id: event.id,
      at: event.metadata.at,
      pos_key: positionKey(event.position),
      event_type: event.type,
      admin_id: adminId,
      admin_email: admin?.email ?? '',
      // an actor that is not a member (a command-line tool) shows as itself
      admin_pseudo: admin?.pseudo ?? adminId,
      ...entry,
      named_ids: named,
      named_emails: await Promise.all(named.map((id) => emailOf(store, id))),
    });
  },
};
