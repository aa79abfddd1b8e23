import compression from 'compression';
import { RECORDER_PAGE } from '@evo/contracts';
import express, { Router, type Express } from 'express';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import { useFrenchZodErrors } from '@evo/domain';
import { isLoopbackHost } from '@evo/infra';
import { readiness } from '@evo/projections';
import type { AppDeps } from './deps';
import { errorHandler, HttpError, MESSAGES } from './http/errors';
import { csrfGuard } from './http/csrf';
import { idempotencyKeyGuard } from './http/context';
import { ServedHosts, hostGuard } from './http/host-guard';
import { awaitOwnWrites } from './http/read-your-writes';
import { sliceGuard } from './http/slice-guard';
import { identityRouter } from './identity/routes';
import { searchRouter } from './search/routes';
import { videosRouter } from './videos/routes';
import { socialRouter } from './social/routes';
import { moderationRouter } from './moderation/routes';
import { commentsRouter } from './comments/routes';
import { notificationsRouter } from './notifications/routes';
import { messagingRouter } from './messaging/routes';
import { ledgerRouter } from './ledger/routes';
import { coinsRouter } from './coins/routes';
import { giftsRootRouter, giftsRouter } from './gifts/routes';
import { adminRouter, requireAdmin } from './admin/index';
import { analyticsRouter } from './analytics/routes';
import { dataExportRouter } from './data-export/routes';
import { uploadsRouter } from './uploads/media-routes';
import { webAppRouter } from './web-app';

export interface AppOptions {
  /** built web app to serve (web/dist); omitted in API-only tests */
  webDist?: string;
  /** the host names this product serves (shared with the Socket.IO handshake); from the config when omitted */
  hosts?: ServedHosts;
}

/**
 * helmet's headers. HSTS and upgrade-insecure-requests only for a site reached over HTTPS;
 * Cross-Origin-Opener-Policy only where browsers apply it (HTTPS, or localhost): elsewhere they
 * ignore it with a console error.
 */
function helmetFor(https: boolean, trustworthyOrigin = https, allowEval = false) {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        // MediaPipe (face overlays) runs WebAssembly; its glue (embind) also calls `new Function`,
        // allowed on the recorder's page only (RECORDER_PAGE: links to it load a new document)
        'script-src': ["'self'", "'wasm-unsafe-eval'", ...(allowEval ? ["'unsafe-eval'"] : [])],
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:', 'data:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'worker-src': ["'self'", 'blob:'],
        'upgrade-insecure-requests': https ? [] : null,
      },
    },
    strictTransportSecurity: https,
    crossOriginOpenerPolicy: trustworthyOrigin,
    // uploads are read by our own pages only
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}

/** The HTTP application: /api routers by slice, /uploads, health, and the web app. */
export function createApp(deps: AppDeps, options: AppOptions = {}): Express {
  // zod's messages reach members: every failure without a message of its own answers in French
  useFrenchZodErrors();
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY);
  // before anything else: a request for a name this product does not serve (DNS rebinding)
  app.use(hostGuard(options.hosts ?? new ServedHosts(deps.config)));
  // over plain HTTP (a phone on the LAN) upgrade-insecure-requests would send every asset to
  // https:// and blank the page: that directive and HSTS only go with answers to HTTPS requests
  // (TLS seen directly, or X-Forwarded-Proto from a trusted proxy), or everywhere with HTTPS_ONLY
  const policies = (allowEval: boolean) => ({
    overTls: helmetFor(true, true, allowEval),
    loopback: helmetFor(false, true, allowEval),
    network: helmetFor(false, false, allowEval),
  });
  const [everyPage, recorderPage] = [policies(false), policies(true)];
  app.use((req, res, next) => {
    const policy = req.path === RECORDER_PAGE ? recorderPage : everyPage;
    if (deps.config.HTTPS_ONLY || req.secure) return policy.overTls(req, res, next);
    return policy[isLoopbackHost(req.hostname ?? '') ? 'loopback' : 'network'](req, res, next);
  });

  // which ffmpeg parses uploads ('system' or 'bundled'), where this process runs the video jobs;
  // no path nor version (a public answer)
  app.get('/health', (_req, res, next) => {
    if (!deps.mediaTools) return void res.json({ status: 'ok' });
    deps
      .mediaTools()
      .then((ffmpeg) => res.json({ status: 'ok', ffmpeg }))
      .catch(next);
  });
  app.get('/ready', (_req, res, next) => {
    deps.progress
      .health()
      .then((h) => {
        const { status, body } = readiness(h);
        res.status(status).json(body);
      })
      .catch(next);
  });

  app.use('/uploads', uploadsRouter(deps));

  const api = Router();
  // answers above 1 kB (feeds, profiles, lists) go compressed to whoever accepts it
  api.use(compression());
  api.use(deps.sessions.middleware());
  api.use(csrfGuard);
  api.use(idempotencyKeyGuard);
  api.use(express.json({ limit: '100kb' }));
  api.use(awaitOwnWrites(deps.progress));
  // every /api/admin/* call, known or not: 401 without a session, 403 for members
  api.use('/admin', ...requireAdmin(deps));
  // each slice entered only by the paths its routes start with (see sliceGuard)
  for (const slice of [
    identityRouter,
    videosRouter,
    socialRouter,
    moderationRouter,
    commentsRouter,
    notificationsRouter,
    messagingRouter,
    coinsRouter,
    giftsRouter,
    ledgerRouter,
    adminRouter,
    analyticsRouter,
    searchRouter,
    dataExportRouter,
  ])
    api.use(sliceGuard(slice(deps)));
  api.use((_req, _res, next) => next(new HttpError(404, MESSAGES.notFound)));
  app.use('/api', api);
  // the product specification also shows /gifts/send and /gifts/balance/:email without /api
  app.use(giftsRootRouter(deps));

  // the client-side router owns every other path
  if (options.webDist && existsSync(options.webDist)) app.use(webAppRouter(options.webDist, deps));

  app.use(errorHandler(deps.config.MAX_VIDEO_MB));
  return app;
}
