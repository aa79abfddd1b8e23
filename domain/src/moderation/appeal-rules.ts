import { cleanUserText } from '../shared/text';
import { isOneOf } from '../shared/one-of';
import { conflict, forbidden, invalid, notFound } from '../shared/errors';
import type { VideoVisibility } from '../videos/video-decider';
import type { AppealAnswered } from './events';
import { MODERATION_MESSAGES, SANCTION_MESSAGES } from './rules';

/**
 * Moderation decisions and their appeals (issue 32): an administrator's decision about a member (a
 * video hidden or deleted, a restriction) reaches them with its reason and can be contested once,
 * within APPEAL_WINDOW_MONTHS; an administrator keeps or reverses it with an answer.
 */

/** How long a decision can be contested, in calendar months from the decision. */
export const APPEAL_WINDOW_MONTHS = 6;
export const APPEAL_TEXT_MAX = 2000;
export const APPEAL_ANSWER_MAX = 2000;
export const RESTRICTION_REASON_MAX = 500;

/** An appeal's outcome: the decision kept, or reversed (the video back to its former visibility, the restriction lifted). */
export const APPEAL_OUTCOMES = ['maintenue', 'annulée'] as const;
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number];
export const APPEAL_OUTCOME_LABELS: Record<AppealOutcome, string> = {
  maintenue: 'Décision maintenue',
  annulée: 'Décision annulée',
};

/** What a restriction takes away: publishing videos, commenting, writing private messages. */
export const RESTRICTION_SCOPES = ['upload', 'comment', 'message'] as const;
export type RestrictionScope = (typeof RESTRICTION_SCOPES)[number];
export const RESTRICTION_SCOPE_LABELS: Record<RestrictionScope, string> = {
  upload: 'publier des vidéos',
  comment: 'commenter',
  message: 'écrire des messages privés',
};
export const isRestrictionScope = isOneOf(RESTRICTION_SCOPES);

/** The reason a decision carries when the administrator chose none: SPEC's sanction message for it. */
export const defaultDecisionReason = (visibility: VideoVisibility): string =>
  visibility === 'supprimée' ? SANCTION_MESSAGES[1] : SANCTION_MESSAGES[0];

export const restrictionsStream = (userId: string) => `restrictions-${userId}`;
export const videoDecisionId = (videoId: number, decisionNo: number) => `video-${videoId}-${decisionNo}`;
export const restrictionDecisionId = (userId: string, restrictionNo: number) =>
  `restriction-${userId}-${restrictionNo}`;

export type DecisionRef =
  { kind: 'video'; videoId: number; decisionNo: number } | { kind: 'restriction'; userId: string; decisionNo: number };

/** A decision id from a path; undefined when it names none. */
export function parseDecisionId(id: string): DecisionRef | undefined {
  const video = /^video-([1-9]\d{0,14})-([1-9]\d{0,8})$/.exec(id);
  if (video) return { kind: 'video', videoId: Number(video[1]), decisionNo: Number(video[2]) };
  const restriction = /^restriction-([A-Za-z0-9_-]{1,64})-([1-9]\d{0,8})$/.exec(id);
  if (restriction) return { kind: 'restriction', userId: restriction[1], decisionNo: Number(restriction[2]) };
  return undefined;
}

/** The last moment a decision taken at `decidedAt` can be contested. */
export function appealDeadline(decidedAt: string): Date {
  const d = new Date(decidedAt);
  d.setUTCMonth(d.getUTCMonth() + APPEAL_WINDOW_MONTHS);
  return d;
}

/** A moment as members read it: '30 novembre 2026 à 14:00' (Paris time, the product's public). */
export function frenchDateTime(iso: string | Date): string {
  return new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', dateStyle: 'long', timeStyle: 'short' }).format(
    typeof iso === 'string' ? new Date(iso) : iso,
  );
}

export const APPEAL_MESSAGES = {
  decisionNotFound: 'Décision introuvable.',
  notYours: 'Tu ne peux contester que les décisions qui te concernent.',
  alreadyAppealed: 'Tu as déjà contesté cette décision : une seule contestation est possible.',
  noLongerInForce: "Cette décision a été annulée ou remplacée depuis : il n'y a plus rien à contester.",
  restrictionOver: "Cette restriction est terminée : il n'y a plus rien à contester.",
  deadlinePassed: (deadline: Date) =>
    `Le délai pour contester cette décision (${APPEAL_WINDOW_MONTHS} mois) est dépassé depuis le ${frenchDateTime(deadline)}.`,
  textRequired: 'Explique en quelques mots pourquoi tu contestes la décision.',
  textTooLong: `Ta contestation ne doit pas dépasser ${APPEAL_TEXT_MAX} caractères.`,
  appealSent: 'Contestation envoyée. Un administrateur te répondra.',
  appealNotFound: 'Contestation introuvable.',
  alreadyAnswered: 'Cette contestation a déjà reçu une réponse.',
  answerRequired: "La réponse à l'auteur est obligatoire.",
  answerTooLong: `La réponse ne doit pas dépasser ${APPEAL_ANSWER_MAX} caractères.`,
  badOutcome: 'Issue invalide : « maintenue » ou « annulée ».',
  answered: (outcome: AppealOutcome) => `Réponse envoyée : ${APPEAL_OUTCOME_LABELS[outcome].toLowerCase()}.`,
  /** notifications to the member */
  decided: (outcome: AppealOutcome, answer: string) =>
    outcome === 'annulée'
      ? `Ta contestation a été acceptée : la décision est annulée. Réponse : ${answer}`
      : `Ta contestation a été examinée : la décision est maintenue. Réponse : ${answer}`,
} as const;

export const RESTRICTION_MESSAGES = {
  noScope: 'Choisissez au moins une restriction : publier des vidéos, commenter ou écrire des messages privés.',
  badScope: 'Restriction inconnue : « upload », « comment » ou « message ».',
  reasonRequired: 'Le motif de la restriction est obligatoire : il est montré au membre.',
  reasonTooLong: `Le motif ne doit pas dépasser ${RESTRICTION_REASON_MAX} caractères.`,
  endInPast: 'La fin de la restriction doit être dans le futur.',
  badEnd: 'Date de fin invalide.',
  negativeDuration: 'La durée de la restriction doit être un nombre positif d’heures.',
  bothEnds: 'Donnez une durée ou une date de fin, pas les deux.',
  notSelf: 'Vous ne pouvez pas vous restreindre vous-même.',
  memberNotFound: 'Membre introuvable.',
  restrictionNotFound: 'Restriction introuvable.',
  alreadyOver: 'Cette restriction est déjà terminée.',
  restricted: 'Restriction enregistrée.',
  lifted: 'Restriction levée.',
  /** the 403 of a restricted action: which restriction, until when, why */
  refused: (scope: RestrictionScope, endsAt: string | null, reason: string) =>
    `Restriction en cours : tu ne peux pas ${RESTRICTION_SCOPE_LABELS[scope]} ${
      endsAt ? `jusqu'au ${frenchDateTime(endsAt)}` : "jusqu'à nouvel ordre"
    }. Motif : ${reason}`,
  /** the member's notification */
  notice: (scopes: readonly RestrictionScope[], endsAt: string | null, reason: string) =>
    `Restriction : tu ne peux plus ${scopes.map((s) => RESTRICTION_SCOPE_LABELS[s]).join(', ')} ${
      endsAt ? `jusqu'au ${frenchDateTime(endsAt)}` : "jusqu'à nouvel ordre"
    }. Motif : ${reason}`,
  liftedNotice: 'Ta restriction a été levée.',
} as const;

/** A member's or an administrator's text, cleaned and checked (400 with `required` / `tooLong`). */
export function checkedText(raw: string, max: number, required: string, tooLong: string): string {
  const text = cleanUserText(typeof raw === 'string' ? raw : '');
  if (!text) throw invalid(required);
  if ([...text].length > max) throw invalid(tooLong);
  return text;
}

/**
 * An administrator's answer to an appeal, whatever the decision (a video's, a restriction): only
 * an administrator, only an appeal there is and once, one of the outcomes, an answer of their own.
 */
export function answeredAppeal(
  appeal: { answered: unknown } | null | undefined,
  command: { requesterIsAdmin: boolean; outcome: string; answer: string },
  ref: Omit<AppealAnswered['data'], 'outcome' | 'answer' | 'at'>,
  now: Date,
): AppealAnswered {
  if (!command.requesterIsAdmin) throw forbidden(MODERATION_MESSAGES.adminOnly);
  if (!appeal) throw notFound(APPEAL_MESSAGES.appealNotFound);
  if (appeal.answered) throw conflict(APPEAL_MESSAGES.alreadyAnswered);
  if (!isOneOf(APPEAL_OUTCOMES)(command.outcome)) throw invalid(APPEAL_MESSAGES.badOutcome);
  const answer = checkedText(
    command.answer,
    APPEAL_ANSWER_MAX,
    APPEAL_MESSAGES.answerRequired,
    APPEAL_MESSAGES.answerTooLong,
  );
  return {
    type: 'AppealAnswered',
    data: { ...ref, outcome: command.outcome as AppealOutcome, answer, at: now.toISOString() },
  };
}
