import { num, type StatsObject } from '../api';
import { formatNumber } from '../format';
import type { StatItem } from '../StatGrid';
import { StatsView } from './StatsView';

/** GET /api/admin/stats/videos (the product screens: total, public, hidden, deleted; the server adds rejected). */
export const videosStatItems = (s: StatsObject): StatItem[] => [
  { label: 'Vidéos au total', value: formatNumber(num(s.total_videos)) },
  { label: 'Vidéos publiques', value: formatNumber(num(s.public_videos)) },
  { label: 'Vidéos masquées', value: formatNumber(num(s.hidden_videos)) },
  { label: 'Vidéos supprimées', value: formatNumber(num(s.deleted_videos)) },
  {
    label: 'Vidéos rejetées',
    value: formatNumber(num(s.rejected_videos)),
    detail: 'Fichiers illisibles : comptés dans le total seulement.',
  },
];

/** /admin/stats/videos */
export default function VideosStatsScreen() {
  return (
    <StatsView
      kind="videos"
      title="Statistiques vidéos"
      failure="Impossible de charger les stats vidéos"
      items={videosStatItems}
    />
  );
}
