import { useEffect, useId, useRef, useState } from 'react';
import { formatNumber, longDay, shortDay } from './format';

/** One series of a chart: drawn upwards, or downwards (`down`: followers lost under the axis). */
export interface ChartSeries {
  label: string;
  values: number[];
  /** a CSS colour */
  color: string;
  down?: boolean;
}

interface DailyChartProps {
  title: string;
  /** what the vertical axis counts, e.g. 'Vues' */
  unit: string;
  days: string[];
  series: ChartSeries[];
}

const HEIGHT = 214;
const PAD = { top: 26, right: 8, bottom: 42, left: 40 };
/** room for one '12 janv.' label */
const LABEL_WIDTH = 58;

/** A round step (1, 2, 5 × 10^n) that cuts `span` in at most 4. */
function niceStep(span: number): number {
  if (span <= 4) return 1;
  const raw = span / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * p >= raw) ?? 10) * p;
}

/** The width the chart is drawn at: its box's, followed when the window turns or resizes. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(320);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || 320);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width) || 320));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * Bars per day, drawn in SVG at the box's own width (so labels keep their size on a phone), with
 * French axis labels, a text summary for screen readers and the figures as a table.
 */
export function DailyChart({ title, unit, days, series }: DailyChartProps) {
  const [box, width] = useWidth();
  const titleId = useId();
  const descId = useId();
  const signedValues = series.flatMap((s) => s.values.map((v) => (s.down ? -v : v)));
  const top = Math.max(0, ...signedValues);
  const bottom = Math.min(0, ...signedValues);
  const step = niceStep(Math.max(1, top - bottom));
  const yMax = Math.max(step, Math.ceil(top / step) * step);
  const yMin = Math.floor(bottom / step) * step;
  const plotW = Math.max(10, width - PAD.left - PAD.right);
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + ((yMax - v) / (yMax - yMin)) * plotH;
  const slot = plotW / days.length;
  const barW = Math.max(1, slot * (days.length > 31 ? 0.8 : 0.65));
  const ticks: number[] = [];
  for (let v = yMin; v <= yMax; v += step) ticks.push(v);
  // every k-th day labelled so that labels never overlap; the last day always
  const every = Math.max(1, Math.ceil(LABEL_WIDTH / slot));
  // the last label ends at the plot's right edge: a label that would reach into it is left out
  const lastLeft = PAD.left + plotW - LABEL_WIDTH;
  const labelled = days.map(
    (_, i) =>
      i === days.length - 1 ||
      ((days.length - 1 - i) % every === 0 && PAD.left + i * slot + slot / 2 + LABEL_WIDTH / 2 <= lastLeft),
  );
  const totals = series.map((s) => s.values.reduce((a, b) => a + b, 0));
  const summary = series
    .map((s, i) => {
      const max = Math.max(...s.values);
      const at = s.values.indexOf(max);
      return `${s.label} : ${formatNumber(totals[i])} sur la période${max > 0 ? `, au plus ${formatNumber(max)} le ${longDay(days[at])}` : ''}`;
    })
    .join(' ; ');

  return (
    <figure className="analytics-chart card">
      <figcaption id={titleId} className="analytics-chart__title">
        {title}
      </figcaption>
      {series.length > 1 ? (
        <ul className="analytics-chart__legend" aria-hidden="true">
          {series.map((s) => (
            <li key={s.label}>
              <span className="analytics-chart__swatch" style={{ background: s.color }} />
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
      <div ref={box} className="analytics-chart__box">
        <svg
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          role="img"
          aria-labelledby={titleId}
          aria-describedby={descId}
        >
          <desc id={descId}>{summary}</desc>
          {ticks.map((t) => (
            <g key={t}>
              <line
                x1={PAD.left}
                x2={PAD.left + plotW}
                y1={y(t)}
                y2={y(t)}
                className={t === 0 ? 'analytics-chart__axis' : 'analytics-chart__grid'}
              />
              <text x={PAD.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className="analytics-chart__tick">
                {t < 0 ? `−${formatNumber(-t)}` : formatNumber(t)}
              </text>
            </g>
          ))}
          {series.map((s) =>
            s.values.map((v, i) => {
              if (v === 0) return null;
              const value = s.down ? -v : v;
              const x = PAD.left + i * slot + (slot - barW) / 2;
              const y0 = y(Math.max(0, value));
              return (
                <rect
                  key={`${s.label}-${days[i]}`}
                  x={x}
                  y={y0}
                  width={barW}
                  height={Math.max(1, Math.abs(y(value) - y(0)))}
                  fill={s.color}
                  rx={Math.min(3, barW / 3)}
                >
                  <title>{`${longDay(days[i])} : ${formatNumber(v)} ${s.label.toLowerCase()}`}</title>
                </rect>
              );
            }),
          )}
          {days.map((d, i) =>
            labelled[i] ? (
              <text
                key={d}
                x={PAD.left + i * slot + slot / 2}
                y={HEIGHT - PAD.bottom + 16}
                textAnchor={i === days.length - 1 ? 'end' : 'middle'}
                className="analytics-chart__tick"
              >
                {shortDay(d)}
              </text>
            ) : null,
          )}
          <text x={PAD.left} y={HEIGHT - 2} className="analytics-chart__axis-title">
            Jour (heure de Paris)
          </text>
          <text x={4} y={12} className="analytics-chart__axis-title">
            {unit}
          </text>
        </svg>
      </div>
      <details className="analytics-chart__data">
        <summary>Voir les données (tableau)</summary>
        <div className="analytics-chart__table">
          <table>
            <caption className="sr-only">{title}, jour par jour</caption>
            <thead>
              <tr>
                <th scope="col">Jour</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d, i) => (
                <tr key={d}>
                  <th scope="row">{shortDay(d)}</th>
                  {series.map((s) => (
                    <td key={s.label}>{formatNumber(s.values[i])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                {totals.map((t, i) => (
                  <td key={series[i].label}>{formatNumber(t)}</td>
                ))}
              </tr>
            </tfoot>
          </table>
        </div>
      </details>
    </figure>
  );
}
