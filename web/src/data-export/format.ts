import type { DataExportStatus } from '@evo/contracts';

// Paris time, as the notification words the link's end
const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });
export const formatWhen = (iso: string) => dateTime.format(new Date(iso));

/** '840 ko', '12,4 Mo' */
export function formatSize(bytes: number): string {
  if (bytes < 1000 * 1000) return `${Math.max(1, Math.round(bytes / 1000))} ko`;
  return `${(bytes / 1e6).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} Mo`;
}

export const STATUS_LABELS: Record<DataExportStatus, string> = {
  en_preparation: 'En préparation',
  prete: 'Prête',
  echouee: 'Échouée',
  expiree: 'Expirée',
};
