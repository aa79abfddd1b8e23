import { cleanedText } from '../shared/text';
import { isOneOf } from '../shared/one-of';
import { z } from 'zod';
import { VIDEO_VISIBILITIES } from '../videos/events';
import type { VideoVisibility } from '../videos/video-decider';

/** the product states and transitions, "Report status": en_attente, en_cours, ferme (shown 'Traitée'); set freely. */
export const REPORT_STATUSES = ['en_attente', 'en_cours', 'ferme'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_CLOSED: ReportStatus = 'ferme';
/** How a status reads in French (the back-office's labels). */
export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = {
  en_attente: 'En attente',
  en_cours: 'En cours',
  ferme: 'Traitée',
};
export const isReportStatus = isOneOf(REPORT_STATUSES);

/**
 * the product business constants: the sanction messages an administrator may send to a reported video's author
 * (and the no-message option: null).
 */
export const SANCTION_MESSAGES = [
  'Votre vidéo a été restreinte pour non-conformité',
  'Votre vidéo a été effacée : non-respect des consignes communautaires',
  'Veuillez modifier votre vidéo pour éviter une restriction',
] as const;
export type SanctionMessage = (typeof SANCTION_MESSAGES)[number];
export const isSanctionMessage = isOneOf(SANCTION_MESSAGES);

export const MODERATION_MESSAGES = {
  adminOnly: 'Accès réservé aux administrateurs.',
  reportNotFound: 'Signalement introuvable.',
  badReportId: 'Identifiant de signalement invalide.',
  badStatus: 'Statut invalide.',
  unknownSanction: 'Sanction inconnue.',
  badVisibility: 'Visibilité invalide.',
  answered: 'Réponse envoyée ✅',
  /** what the reporter's notification says when their report is closed */
  reportClosed: 'Ton signalement a été traité.',
  videoUpdated: (status: VideoVisibility) => `Vidéo mise à jour : ${status}`,
  rebuildStarted: 'Reconstruction lancée.',
  rebuildRunning: 'Une reconstruction est déjà en cours.',
  rebuildNotHere:
    'Dans ce mode de déploiement, les projections se reconstruisent avec « npm run replay » (service des projections).',
  resumeNotHere:
    'Dans ce mode de déploiement, une projection arrêtée se reprend avec « npm run replay -- --resume NOM » (service des projections arrêté).',
  projectionNotStopped: "Cette projection n'est pas arrêtée.",
  projectionResumed: (name: string) => `Projection « ${name} » reprise.`,
  projectionStillFailing: (name: string, error: string) => `La projection « ${name} » échoue encore : ${error}`,
} as const;

/** A report's moderation life: `report-<id>` (the report itself was filed on its claim stream). */
export const reportStream = (reportId: number) => `report-${reportId}`;
/** administrators' operations on the platform (rebuilds) */
export const ADMIN_OPERATIONS_STREAM = 'admin-operations';

/** A report status from a body: exactly one of the three. */
export const reportStatusField = z
  .string({ required_error: MODERATION_MESSAGES.badStatus, invalid_type_error: MODERATION_MESSAGES.badStatus })
  .trim()
  .refine(isReportStatus, MODERATION_MESSAGES.badStatus)
  .transform((s) => s as ReportStatus);

/**
 * The sanction message of a body: one of SANCTION_MESSAGES, or null / '' (no message: clears the
 * report's response). Absent: the report keeps its response (undefined).
 */
export const adminResponseField = z.unknown().transform((v, ctx): SanctionMessage | null | undefined => {
  if (v === undefined) return undefined;
  if (v === null) return null;
  const text = typeof v === 'string' ? v.trim().normalize('NFC') : undefined;
  if (text === '') return null;
  if (!isSanctionMessage(text)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: MODERATION_MESSAGES.unknownSanction });
    return z.NEVER;
  }
  return text;
});

/** 'masquée', 'publique', 'supprimée' (also without accents, any case). */
export const visibilityField = z
  .string({ required_error: MODERATION_MESSAGES.badVisibility, invalid_type_error: MODERATION_MESSAGES.badVisibility })
  .transform((s) => {
    const v = s.trim().normalize('NFC').toLowerCase();
    return v === 'masquee' ? 'masquée' : v === 'supprimee' ? 'supprimée' : v;
  })
  .refine(isOneOf(VIDEO_VISIBILITIES), MODERATION_MESSAGES.badVisibility)
  .transform((v) => v as VideoVisibility);

/** A member's report of a video: stream `report-claim-<videoId>-<reporterId>` (at most one open). */
export const reportClaimStream = (videoId: number, reporterId: string) => `report-claim-${videoId}-${reporterId}`;
/** sequence name of report ids */
export const REPORT_SEQUENCE = 'report';

export const REPORT_REASON_MAX = 500;
/** the reason stored when the member gave none (the product specification: "the reason (or 'Non spécifié')") */
export const DEFAULT_REPORT_REASON = 'Non spécifié';

export const REPORT_MESSAGES = {
  alreadyReported: 'Tu as déjà signalé cette vidéo.',
  ownVideo: 'Tu ne peux pas signaler ta propre vidéo.',
  reasonInvalid: 'Le motif du signalement doit être un texte.',
  reasonTooLong: `Le motif du signalement ne doit pas dépasser ${REPORT_REASON_MAX} caractères.`,
} as const;

/** The reason of a report: trimmed, at most 500 characters, 'Non spécifié' when empty or absent. */
export const reportReasonField = cleanedText(
  z
    .string({ invalid_type_error: REPORT_MESSAGES.reasonInvalid })
    .trim()
    .max(REPORT_REASON_MAX, REPORT_MESSAGES.reasonTooLong)
    .nullish()
    .transform((r) => (r ? r : DEFAULT_REPORT_REASON)),
);
