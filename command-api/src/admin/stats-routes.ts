import { Router, type Request } from 'express';
import {
  statsAsOf,
  statsMomentsExact,
  statsQueries,
  statsQueriesAsOf,
  STATS_KINDS,
  type StatsKind,
} from '@evo/projections';
import type { EventStore, ReadStore } from '@evo/infra';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { requireAdmin } from './require-admin';
import { StatsQuery } from './schemas';
import { parseInput } from '../http/request';

const PATHS: Record<StatsKind, string> = {
  general: '/admin/stats',
  advanced: '/admin/stats/advanced',
  users: '/admin/stats/users',
  videos: '/admin/stats/videos',
  messages: '/admin/stats/messages',
  gifts: '/admin/stats/gifts',
  coins: '/admin/stats/coins',
};

/**
 * Only when the log's times went backwards (see statsMomentsExact): replays "as of" a date, kept for the few last (date, log position) pairs: the stats screen asks
 * for several objects of one date in a row, and each replay reads the whole log. A new event
 * changes the log position, so an answer is never stale.
 */
class AsOfReplays {
  private readonly kept = new Map<string, Promise<ReadStore>>();
  constructor(
    private readonly events: EventStore,
    private readonly size = 4,
  ) {}

  async store(asOf: Date): Promise<ReadStore> {
    const key = `${asOf.toISOString()}|${(await this.events.lastPosition()) ?? ''}`;
    let replay = this.kept.get(key);
    if (!replay) {
      replay = statsAsOf(this.events, asOf);
      this.kept.set(key, replay);
      // a failed replay is not kept
      replay.catch(() => this.kept.delete(key));
      // the oldest goes (its store is left to the garbage collector: a request may still read it)
      while (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value as string);
    }
    return replay;
  }
}

/**
 * The administrators' statistics (the product entities, "Stats objects"), from the stats projection;
 * every call accepts `?asOf=<ISO date>` (the figures as they were then: a query of the projection's
 * moments, or a replay of the log up to it if its times went backwards; 400 'Date invalide.' otherwise).
 */
export function statsRouter(deps: AppDeps): Router {
  const admin = requireAdmin(deps);
  const replays = new AsOfReplays(deps.events);
  const r = Router();
  const queriesFor = async (req: Request) => {
    const { asOf } = parseInput(StatsQuery, req.query);
    if (!asOf) return statsQueries(deps.read, new Date());
    return (await statsMomentsExact(deps.read))
      ? statsQueriesAsOf(deps.read, asOf)
      : statsQueries(await replays.store(asOf), asOf);
  };
  for (const kind of STATS_KINDS) {
    r.get(
      PATHS[kind],
      ...admin,
      route(async (req, res) => {
        res.json(await (await queriesFor(req))[kind]());
      }),
    );
  }
  return r;
}
