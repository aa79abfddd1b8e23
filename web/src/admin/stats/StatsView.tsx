import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage } from '../../api/http';
import { FormError } from '../../shell/ui/FormError';
import { AdminPage, ADMIN_CRUMB } from '../AdminPage';
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

  let content;
  if (stats.data) {
    content = <StatGrid label={title} items={items(stats.data)} />;
  } else if (stats.error) {
    content =
      typeof failure !== 'string' ? (
        <StatGrid label={title} items={failure} />
      ) : (
        <FormError message={failure} detail={errorMessage(stats.error)} />
      );
  } else {
    content = (
      <p className="loading" role="status">
        Chargement...
      </p>
    );
  }

  return (
    <AdminPage title={title} crumbs={[ADMIN_CRUMB, STATS_CRUMB]} intro={intro}>
      <AsOfPicker asOf={asOf} onChange={setAsOf} />
      <div aria-busy={stats.loading}>{content}</div>
      <p>
        <Link to="/admin/stats">← Toutes les statistiques</Link>
      </p>
    </AdminPage>
  );
}
