import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '@evo/contracts';

/** `?period=` of the screen's address: one of 7, 30, 60; 7 otherwise. */
export function periodParam(raw: string | null): AnalyticsPeriod {
  return ANALYTICS_PERIODS.find((p) => String(p) === raw) ?? 7;
}
