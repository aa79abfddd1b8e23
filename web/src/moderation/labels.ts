import type { RestrictionScopeName } from '@evo/contracts';

/** French words of the moderation screens. */
export const SCOPE_LABELS: Record<RestrictionScopeName, string> = {
  upload: 'Publier des vidéos',
  comment: 'Commenter',
  message: 'Écrire des messages privés',
};

export const ACTION_LABELS: Record<string, string> = {
  masquée: 'Vidéo masquée',
  supprimée: 'Vidéo supprimée',
};

export const APPEAL_STATUS_LABELS: Record<string, string> = {
  en_attente: 'Contestation en attente de réponse',
  maintenue: 'Décision maintenue',
  annulée: 'Décision annulée',
};

// Paris time, as the server's refusals word a restriction's end: one moment reads the same everywhere
const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });
const date = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'Europe/Paris' });

export const formatWhen = (iso: string) => dateTime.format(new Date(iso));
export const formatDay = (iso: string) => date.format(new Date(iso));

/** 'jusqu'au 1 décembre 2026 à 11:00' or 'jusqu'à nouvel ordre' */
export const untilText = (endsAt: string | null) =>
  endsAt ? `jusqu'au ${formatWhen(endsAt)}` : "jusqu'à nouvel ordre";
