import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import {
  ANALYTICS_PERIODS,
  type AnalyticsDay,
  type AnalyticsFigures,
  type AnalyticsPeriod,
  type CreatorAnalyticsAnswer,
  type VideoAnalyticsAnswer,
} from '@evo/contracts';
import { analyticsRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';
import { useSocketEvent } from '../shell/socket';
import { QueryState } from '../shell/ui/QueryState';
import { useCurrentUser } from '../identity/sessionContext';
import { periodParam } from './api';
import { DailyChart, type ChartSeries } from './DailyChart';
import { change, formatNumber, longDay } from './format';
import './analytics.css';

const COLORS = {
  views: '#1d4ed8',
  likes: '#e11d48',
  comments: '#7c3aed',
  gifts: '#b45309',
  gained: '#11703a',
  lost: '#b42318',
};

const LOAD_FAILED = 'Impossible de charger les statistiques.';
const NOTE =
  'Jours comptés à l’heure de Paris. Les J’aime sont nets : un J’aime retiré est déduit le jour du retrait. Les pièces des cadeaux sont celles qui te reviennent, commission déduite.';

interface Card {
  label: string;
  value: string;
  current: number;
  previous: number;
  /** what "more" means: followers lost going up is not good news */
  lowerIsBetter?: boolean;
}

function cardsOf(t: AnalyticsFigures, p: AnalyticsFigures, withCreator: boolean): Card[] {
  const card = (label: string, key: keyof AnalyticsFigures, lowerIsBetter = false): Card => ({
    label,
    value: formatNumber(t[key]),
    current: t[key],
    previous: p[key],
    lowerIsBetter,
  });
  const cards = [card('Vues', 'views'), card('J’aime (nets)', 'likes'), card('Commentaires', 'comments')];
  if (!withCreator) return cards;
  return [
    ...cards,
    card('Cadeaux reçus', 'gifts'),
    card('Pièces reçues', 'gift_coins'),
    card('Abonnés gagnés', 'followers_gained'),
    card('Abonnés perdus', 'followers_lost', true),
  ];
}

function chartsOf(days: AnalyticsDay[], withCreator: boolean) {
  const labels = days.map((d) => d.day);
  const values = (key: keyof AnalyticsFigures) => days.map((d) => d[key]);
  const one = (title: string, unit: string, s: ChartSeries) => ({ title, unit, series: [s] });
  const charts = [
    one('Vues par jour', 'Vues', { label: 'Vues', values: values('views'), color: COLORS.views }),
    one('J’aime nets par jour', 'J’aime', { label: 'J’aime nets', values: values('likes'), color: COLORS.likes }),
    one('Commentaires par jour', 'Commentaires', {
      label: 'Commentaires',
      values: values('comments'),
      color: COLORS.comments,
    }),
  ];
  if (withCreator) {
    charts.push(
      one('Pièces reçues en cadeaux par jour', 'Pièces', {
        label: 'Pièces',
        values: values('gift_coins'),
        color: COLORS.gifts,
      }),
      {
        title: 'Abonnés gagnés et perdus par jour',
        unit: 'Abonnés',
        series: [
          { label: 'Gagnés', values: values('followers_gained'), color: COLORS.gained },
          { label: 'Perdus', values: values('followers_lost'), color: COLORS.lost, down: true },
        ],
      },
    );
  }
  return { labels, charts };
}

/**
 * One's own figures follow what happens to them: a like, comment, follow or gift notifies the
 * creator, and the screen loads again (once a second at most; views do not notify).
 */
function useLiveReload(reload: () => void, enabled: boolean) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const later = () => {
    if (!enabled || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      reload();
    }, 1000);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useSocketEvent('notification:new', later);
  useSocketEvent('gift:received', later);
  useSocketEvent('follow:new', later);
}

function PeriodPicker({ period }: { period: AnalyticsPeriod }) {
  const [params, setParams] = useSearchParams();
  return (
    <div className="analytics__periods" role="group" aria-label="Période">
      {ANALYTICS_PERIODS.map((p) => (
        <button
          key={p}
          type="button"
          className={p === period ? 'btn btn--primary btn--small' : 'btn btn--secondary btn--small'}
          aria-pressed={p === period}
          onClick={() => {
            const next = new URLSearchParams(params);
            next.set('period', String(p));
            setParams(next, { replace: true });
          }}
        >
          {p} jours
        </button>
      ))}
    </div>
  );
}

function Summary({ cards, period }: { cards: Card[]; period: AnalyticsPeriod }) {
  return (
    <ul className="grid-list analytics__cards" aria-label="Totaux de la période">
      {cards.map((c) => {
        const delta = c.current - c.previous;
        const good = c.lowerIsBetter ? delta < 0 : delta > 0;
        const bad = c.lowerIsBetter ? delta > 0 : delta < 0;
        return (
          <li key={c.label} className="analytics__card card">
            <span className="analytics__card-label">{c.label}</span>
            <strong className="analytics__card-value">{c.value}</strong>
            <span className={`analytics__change${good ? ' is-good' : bad ? ' is-bad' : ''}`}>
              {change(c.current, c.previous)}
              <span className="analytics__change-ref"> vs les {period} jours précédents</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function Figures({ data, withCreator }: { data: CreatorAnalyticsAnswer | VideoAnalyticsAnswer; withCreator: boolean }) {
  const { labels, charts } = chartsOf(data.days, withCreator);
  return (
    <>
      <p className="analytics__range">
        Du {longDay(data.from)} au {longDay(data.to)} (aujourd’hui)
      </p>
      <Summary cards={cardsOf(data.totals, data.previous, withCreator)} period={data.period as AnalyticsPeriod} />
      <div className="analytics__charts">
        {charts.map((c) => (
          <DailyChart key={c.title} title={c.title} unit={c.unit} days={labels} series={c.series} />
        ))}
      </div>
    </>
  );
}

function TopVideos({ data }: { data: CreatorAnalyticsAnswer }) {
  return (
    <section className="analytics__top card" aria-labelledby="analytics-top-title">
      <h2 id="analytics-top-title">Vidéos les plus vues sur la période</h2>
      {data.top_videos.length === 0 ? (
        <p>Aucune vue, aucun J’aime ni commentaire sur tes vidéos pendant cette période.</p>
      ) : (
        <ol className="analytics__top-list">
          {data.top_videos.map((v) => (
            <li key={v.id}>
              <span className="analytics__top-title">
                {v.status === 'publique' ? <Link to={`/video/${v.id}`}>{v.title}</Link> : v.title}
                {v.status !== 'publique' ? <em> ({v.status})</em> : null}
              </span>
              <span className="analytics__top-figures">
                {formatNumber(v.views)} vues · {formatNumber(v.likes)} J’aime · {formatNumber(v.comments)} commentaires
              </span>
              <Link to={`/analytics/video/${v.id}?period=${data.period}`} className="analytics__top-link">
                Statistiques<span className="sr-only"> de « {v.title} »</span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function CreatorAnalytics({ period }: { period: AnalyticsPeriod }) {
  const [params] = useSearchParams();
  const pseudo = params.get('pseudo');
  const loaded = useRouteQuery(analyticsRoutes.creator, {}, { search: { period, pseudo } });
  const { user } = useCurrentUser();
  const mine = !pseudo || pseudo.toLowerCase() === user?.pseudo.toLowerCase();
  const title = mine ? 'Mes statistiques' : `Statistiques de @${pseudo}`;
  useLiveReload(() => void loaded.refetch(), mine);
  return (
    <AnalyticsPage title={title} period={period} busy={loaded.isFetching} note={NOTE}>
      <QueryState query={loaded} failed={LOAD_FAILED} detail>
        {(data) => (
          <>
            <Figures data={data} withCreator />
            <TopVideos data={data} />
          </>
        )}
      </QueryState>
    </AnalyticsPage>
  );
}

function VideoAnalytics({ videoId, period }: { videoId: string; period: AnalyticsPeriod }) {
  const loaded = useRouteQuery(analyticsRoutes.video, { id: videoId }, { search: { period } });
  const video = loaded.data?.video;
  const { user } = useCurrentUser();
  useLiveReload(
    () => void loaded.refetch(),
    video !== undefined && video.owner_pseudo.toLowerCase() === user?.pseudo.toLowerCase(),
  );
  const title = video ? `Statistiques de « ${video.title} »` : 'Statistiques de la vidéo';
  return (
    <AnalyticsPage
      title={title}
      period={period}
      busy={loaded.isFetching}
      note={`${NOTE} Les cadeaux et les abonnés sont comptés pour le créateur, pas pour une vidéo.`}
    >
      <QueryState query={loaded} failed={LOAD_FAILED} detail>
        {(data) => <Figures data={data} withCreator={false} />}
      </QueryState>
      <p className="analytics__links">
        {video?.status === 'publique' ? <Link to={`/video/${video.id}`}>Voir la vidéo</Link> : null}
        {video ? (
          <Link to={`/analytics?${new URLSearchParams({ pseudo: video.owner_pseudo, period: String(period) })}`}>
            Toutes les statistiques de @{video.owner_pseudo}
          </Link>
        ) : null}
      </p>
    </AnalyticsPage>
  );
}

/** An analytics page: its title (also the tab's) and period picker, the note on what is counted, then `children`. */
function AnalyticsPage({
  title,
  period,
  busy,
  note,
  children,
}: {
  title: string;
  period: AnalyticsPeriod;
  busy: boolean;
  note: string;
  children: ReactNode;
}) {
  return (
    <section className="page analytics" aria-labelledby="analytics-title" aria-busy={busy}>
      <title>{`${title} · EVO`}</title>
      <header className="analytics__header">
        <h1 id="analytics-title">{title}</h1>
        <PeriodPicker period={period} />
      </header>
      <p className="analytics__note">{note}</p>
      {children}
    </section>
  );
}

/** /analytics (a creator's analytics; `?pseudo=` for administrators) and /analytics/video/:id. */
export default function AnalyticsScreen() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const period = periodParam(params.get('period'));
  return id ? <VideoAnalytics videoId={id} period={period} /> : <CreatorAnalytics period={period} />;
}
