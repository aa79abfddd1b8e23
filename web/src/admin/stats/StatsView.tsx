import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { QueryState } from '../../shell/ui/QueryState';
import { AdminPage } from '../AdminPage';
import type { StatsAnswer, StatsKind } from '../api';
import { AsOfPicker } from '../AsOfPicker';
import { useAsOf, useConsoleError, useStats } from '../hooks';
import { StatGrid, type StatItem } from '../StatGrid';

export const STATS_CRUMB = { to: '/admin/stats', label: 'Statistiques' };

interface StatsViewProps<K extends StatsKind> {
  kind: K;
  title: string;
  intro?: ReactNode;
  /** French text shown when the call fails, or the figures of empty data to show instead. */
  failure: string | StatItem[];
  /** Figures with their French labels, from the stats object. */
  items: (stats: StatsAnswer<K>) => StatItem[];
}

/**
 * One stats page: 'Chargement...' until loaded, the figures, the failure text of the product error catalogue,
 * and the 'Données au' date (`?asOf=`, empty = now).
 */
export function StatsView<K extends StatsKind>({ kind, title, intro, failure, items }: StatsViewProps<K>) {
  const [asOf, setAsOf] = useAsOf();
  const stats = useStats(kind, asOf);
  useConsoleError(stats.error, `Statistiques (${kind}) indisponibles`);

  const content = (
    <QueryState
      query={stats}
      failed={typeof failure === 'string' ? failure : () => <StatGrid label={title} items={failure} />}
      detail
    >
      {(data) => <StatGrid label={title} items={items(data)} />}
    </QueryState>
  );

  return (
    <AdminPage title={title} crumbs={[STATS_CRUMB]} intro={intro}>
      <AsOfPicker asOf={asOf} onChange={setAsOf} />
      <div aria-busy={stats.isFetching}>{content}</div>
      <p>
        <Link to="/admin/stats">← Toutes les statistiques</Link>
      </p>
    </AdminPage>
  );
}
