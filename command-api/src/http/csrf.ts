import type { RequestHandler } from 'express';
import { HttpError } from './errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_MESSAGE = 'Requête refusée : origine non autorisée.';

/**
 * Cross-site request forgery guard for state-changing requests: the browser's Origin (or
 * Referer) must be this site, and Fetch Metadata must not say cross-site. Requests from
 * non-browser clients carry neither header and are let through: CSRF needs a browser, which
 * always sends Origin on cross-site POST/PUT/DELETE.
 */
export const csrfGuard: RequestHandler = (req, _res, next) => {
  if (SAFE.has(req.method)) return next();
  if (req.headers['sec-fetch-site'] === 'cross-site') return next(new HttpError(403, CSRF_MESSAGE));
  const source = req.headers.origin ?? req.headers.referer;
  if (!source || source === 'null') {
    return source === 'null' ? next(new HttpError(403, CSRF_MESSAGE)) : next();
  }
  let host: string;
  try {
    host = new URL(source).host;
  } catch {
    return next(new HttpError(403, CSRF_MESSAGE));
  }
  if (host !== req.headers.host) return next(new HttpError(403, CSRF_MESSAGE));
  next();
};
