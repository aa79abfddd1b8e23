import { frenchDateTime } from '../moderation/appeal-rules';
import type { AccountDeleted } from '../identity/events';

/** The stream of a member's data exports. */
export const dataExportStream = (memberId: string) => `data-export-${memberId}`;

/** How long an archive's link works (stated on screen and in the archive's README). */
export const DATA_EXPORT_TTL_DAYS = 7;
export const DATA_EXPORT_TTL_MS = DATA_EXPORT_TTL_DAYS * 24 * 3600_000;
/**
 * A build that has shown no sign of life (request or progress) for this long is taken as dead (its
 * process killed with its in-process job): a new request may start another, and the dead one's
 * late outcome, if it ever comes, is ignored.
 */
export const DATA_EXPORT_STALE_MS = 60 * 60_000;

/** The file store's name of an archive. */
export const dataExportFileName = (exportId: string) => `evo-donnees-${exportId}.zip`;

export const DATA_EXPORT_MESSAGES = {
  inProgress: 'Ton archive est déjà en préparation : tu recevras une notification dès qu’elle sera prête.',
  inProgressAdmin: 'Une archive de ce membre est déjà en préparation.',
  accountDeleted: 'Ce compte a été supprimé : aucune archive de ses données ne peut plus être préparée ni téléchargée.',
  notFound: 'Archive introuvable.',
  notReady: 'Cette archive est encore en préparation.',
  failed: 'La préparation de cette archive a échoué : demandes-en une nouvelle.',
  expired: 'Ce lien a expiré : demande une nouvelle archive depuis « Mes données ».',
  memberNotFound: 'Membre introuvable.',
  requested: 'Ta demande est enregistrée : ton archive est en préparation.',
  requestedAdmin: 'Archive en préparation pour ce membre.',
  readyNotice: (expiresAt: string) =>
    `Ton archive « Mes données » est prête : télécharge-la avant le ${frenchDateTime(expiresAt)}.`,
  interrupted: 'La préparation de cette archive a été interrompue.',
  buildFailed: "L'archive n'a pas pu être préparée. Réessaie dans quelques minutes.",
} as const;

/** The event that closes a member's account on `user-<id>`: after it, no archive is made nor handed out. */
export const ACCOUNT_DELETED_EVENT: AccountDeleted['type'] = 'AccountDeleted';
/** Does the member's own stream record the account's deletion? */
export const accountDeletedIn = (userEvents: ReadonlyArray<{ type: string }>): boolean =>
  userEvents.some((e) => e.type === ACCOUNT_DELETED_EVENT);
