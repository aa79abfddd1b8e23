import { Router } from 'express';
import { DomainError, MODERATION_MESSAGES } from '@evo/domain';
import { childLogger } from '@evo/infra';
import { ADMINS_ROOM, type RebuildState } from '@evo/projections';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { currentUserId } from '../http/session';
import { answerMessage } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { requireAdmin } from './require-admin';
import { requestRebuild } from './commands';
import type { MessageAnswer, ProjectionsHealthAnswer, RebuildView } from '@evo/contracts';
import type { ProjectionHealth } from '@evo/projections';

const log = childLogger('admin');

/** at most this many 'rebuild:progress' pushes per second while running */
export const REBUILD_PUSHES_PER_SECOND = 4;

/** The rebuild state as answered and pushed: always { status, done, rate, etaSeconds, fraction }, plus what the state has. */
export function rebuildView(s: RebuildState): RebuildView {
  switch (s.status) {
    case 'idle':
      return { status: s.status, done: 0, rate: 0, etaSeconds: 0, fraction: 0 };
    case 'running':
      return s;
    case 'done':
      return {
        ...s,
        done: s.events,
        rate: s.seconds > 0 ? s.events / s.seconds : s.events,
        etaSeconds: 0,
        fraction: 1,
      };
    case 'failed':
      return { ...s, done: 0, rate: 0, etaSeconds: 0, fraction: 0 };
  }
}

/** The read side's health as answered (positions as strings). */
export function healthView(h: ProjectionHealth): ProjectionsHealthAnswer {
  return {
    caught_up: h.caughtUp,
    store_error: h.storeError ?? null,
    stopped: h.stopped.map((s) => ({ ...s, position: String(s.position) })),
  };
}

/**
 * Rebuilding every read model from the log while the product keeps serving (embedded role: the
 * in-process ProjectionService rebuilds beside the live read models, then switches). Progress is
 * pushed as 'rebuild:progress' to the 'admins' room, about 4 times a second, and the final state
 * always. In the distributed stack the projections service owns the read models: 409, use
 * `npm run replay`.
 */
export function projectionsRouter(deps: AppDeps): Router {
  const admin = requireAdmin(deps);
  const service = deps.projections;
  let starting = false;
  const r = Router();

  r.get(
    '/admin/projections/rebuild',
    ...admin,
    route(async (_req, res) => {
      if (!service) throw new DomainError(MODERATION_MESSAGES.rebuildNotHere, 'conflict');
      res.json(rebuildView(service.rebuildState()));
    }),
  );

  r.post(
    '/admin/projections/rebuild',
    ...admin,
    route(async (req, res) => {
      const requesterId = currentUserId(req);
      // checked and marked with no await in between: two requests cannot both start one
      const running = starting || service?.rebuildState().status === 'running';
      if (!running) starting = true;
      let position;
      try {
        position = (await requestRebuild(deps.events, { requesterId, embedded: !!service, running }, contextOf(req)))
          .position;
        let last = 0;
        const onProgress = (s: RebuildState) => {
          const now = Date.now();
          if (s.status === 'running' && now - last < 1000 / REBUILD_PUSHES_PER_SECOND) return;
          last = now;
          deps.push
            .publish(ADMINS_ROOM, 'rebuild:progress', rebuildView(s))
            .catch((err: unknown) => log.warn({ err }, 'rebuild progress push failed'));
        };
        service!.rebuild(onProgress).catch((err: unknown) => log.error({ err }, 'rebuild failed'));
      } finally {
        if (!running) starting = false;
      }
      await answerMessage(deps.sessions, req, res, position, MODERATION_MESSAGES.rebuildStarted, 202);
    }),
  );

  r.get(
    '/admin/projections/status',
    ...admin,
    route(async (_req, res) => {
      res.json(healthView(await deps.progress.health()));
    }),
  );

  // a projector stopped on an event, brought up to date once the cause is fixed (embedded: here)
  r.post(
    '/admin/projections/:name/resume',
    ...admin,
    route(async (req, res) => {
      if (!service) throw new DomainError(MODERATION_MESSAGES.resumeNotHere, 'conflict');
      const name = String(req.params.name);
      const { stopped } = await service.health();
      if (!stopped.some((s) => s.name === name))
        throw new DomainError(MODERATION_MESSAGES.projectionNotStopped, 'not_found');
      try {
        await service.resume(name);
      } catch (err) {
        throw new DomainError(MODERATION_MESSAGES.projectionStillFailing(name, (err as Error).message), 'conflict');
      }
      log.info({ projection: name, by: currentUserId(req) }, 'projection reprise depuis le back-office');
      res.json({ message: MODERATION_MESSAGES.projectionResumed(name) } satisfies MessageAnswer);
    }),
  );

  return r;
}
