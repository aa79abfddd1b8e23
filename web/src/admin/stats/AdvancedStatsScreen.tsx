import type { StatsAnswer } from '../api';
import { formatDecimal, formatNumber } from '../format';
import type { StatItem } from '../StatGrid';
import { StatsView } from './StatsView';

const NOT_AVAILABLE = 'N/A';
const count = (value: number | undefined) => (value === undefined ? '—' : formatNumber(value));
const plural = (n: number, word: string) => `${formatNumber(n)} ${word}${n > 1 ? 's' : ''}`;

/**
 * GET /api/admin/stats/advanced (the product screens): top creator (email and public video count), most
 * viewed video (title and views), 'N/A' for a missing top; null (empty data) gives 'N/A' and '—'.
 */
export const advancedStatItems = (s: StatsAnswer<'advanced'> | null): StatItem[] => {
  return [
    {
      label: 'Meilleur créateur',
      value: s?.top_creator?.user_email || NOT_AVAILABLE,
      detail: s?.top_creator ? plural(s.top_creator.video_count, 'vidéo') : undefined,
    },
    {
      label: 'Vidéo la plus vue',
      value: s?.top_video ? s.top_video.title || 'Sans titre' : NOT_AVAILABLE,
      detail: s?.top_video ? plural(s.top_video.views, 'vue') : undefined,
    },
    { label: 'Signalements au total', value: count(s?.total_reports) },
    { label: 'Vidéos publiques', value: count(s?.public_videos) },
    { label: 'Vidéos supprimées', value: count(s?.deleted_videos) },
    {
      label: 'Moyenne de vidéos par jour',
      value: s ? formatDecimal(s.avg_videos_per_day) : '—',
    },
  ];
};

/** /admin/stats/advanced: on error it shows empty data (the product error catalogue). */
export default function AdvancedStatsScreen() {
  return (
    <StatsView
      kind="advanced"
      title="Statistiques avancées"
      failure={advancedStatItems(null)}
      items={advancedStatItems}
    />
  );
}
