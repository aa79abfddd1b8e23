import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { HttpError } from './errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_MESSAGE = 'Requête refusée : origine non autorisée.';

/**
 * Whether a browser sent this request from another site: the browser's Origin (or Referer) must
 * be this site, and Fetch Metadata must not say cross-site. Requests from non-browser clients
 * carry neither header and are not foreign: forgery needs a browser, which always sends Origin on
 * cross-site POST/PUT/DELETE and on WebSocket handshakes. Shared by the HTTP guard and the
 * Socket.IO handshake.
 */
export function isForeignOrigin(headers: IncomingHttpHeaders): boolean {
  if (headers['sec-fetch-site'] === 'cross-site') return true;
  const source = headers.origin ?? headers.referer;
  if (!source) return false;
  if (source === 'null') return true;
  try {
    return new URL(source).host !== headers.host;
  } catch {
    return true;
  }
}

/** Cross-site request forgery guard for state-changing requests (see isForeignOrigin). */
export const csrfGuard: RequestHandler = (req, _res, next) => {
  if (SAFE.has(req.method)) return next();
  next(isForeignOrigin(req.headers) ? new HttpError(403, CSRF_MESSAGE) : undefined);
};
