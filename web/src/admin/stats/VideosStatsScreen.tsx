import type { StatsAnswer } from '../api';
import { formatNumber } from '../format';
import type { StatItem } from '../StatGrid';
import { StatsView } from './StatsView';

/** GET /api/admin/stats/videos (the product screens: total, public, hidden, deleted; the server adds rejected). */
export const videosStatItems = (s: StatsAnswer<'videos'>): StatItem[] => [
  { label: 'Vidéos au total', value: formatNumber(s.total_videos) },
  { label: 'Vidéos publiques', value: formatNumber(s.public_videos) },
  { label: 'Vidéos masquées', value: formatNumber(s.hidden_videos) },
  { label: 'Vidéos supprimées', value: formatNumber(s.deleted_videos) },
  {
    label: 'Vidéos rejetées',
    value: formatNumber(s.rejected_videos),
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
