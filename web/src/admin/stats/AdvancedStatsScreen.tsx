import { readAdvancedStats } from '../api';
import { formatDecimal, formatNumber } from '../format';
import { StatsView } from './StatsView';

const NOT_AVAILABLE = 'N/A';
const count = (value: number | null) => (value === null ? '—' : formatNumber(value));

/** /admin/stats/advanced: on error it shows empty data (SPEC.md §8), 'N/A' for a missing top. */
export default function AdvancedStatsScreen() {
  return (
    <StatsView
      kind="advanced"
      title="Statistiques avancées"
      failure={null}
      items={(raw) => {
        const s = readAdvancedStats(raw);
        return [
          {
            label: 'Meilleur créateur',
            value: s.top_creator?.user_email || NOT_AVAILABLE,
            detail: s.top_creator
              ? `${formatNumber(s.top_creator.video_count)} vidéo${s.top_creator.video_count > 1 ? 's' : ''}`
              : undefined,
          },
          {
            label: 'Vidéo la plus vue',
            value: s.top_video ? s.top_video.title || 'Sans titre' : NOT_AVAILABLE,
            detail: s.top_video
              ? `${formatNumber(s.top_video.views)} vue${s.top_video.views > 1 ? 's' : ''}`
              : undefined,
          },
          { label: 'Signalements au total', value: count(s.total_reports) },
          { label: 'Vidéos publiques', value: count(s.public_videos) },
          { label: 'Vidéos supprimées', value: count(s.deleted_videos) },
          {
            label: 'Moyenne de vidéos par jour',
            value: s.avg_videos_per_day === null ? '—' : formatDecimal(s.avg_videos_per_day),
          },
        ];
      }}
    />
  );
}
