import path from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import { mediaQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, MESSAGES, route } from '../http/errors';

/** a stored name (we generate them all): one path segment, no dot files */
const STORED_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*\.[A-Za-z0-9]{1,8}$/;

/**
 * /uploads: one static root per folder we fill (never the folder itself, so `tmp/`, where uploads
 * wait to be checked, is never served, whatever the path says). Profile pictures and gift images
 * are public; a video's file and poster are served only to whoever may see the video: anyone while
 * it is public (and not rejected), else its owner and administrators (visibility from the read
 * models). Refused or unknown: 404, as if the file did not exist.
 */
export function uploadsRouter(deps: AppDeps): Router {
  const { root } = deps.uploads;
  const media = mediaQueries(deps.read);
  const r = Router();
  const serve = (folder: string, headers: Record<string, string> = {}) =>
    express.static(path.join(root, folder), {
      index: false,
      dotfiles: 'deny',
      fallthrough: true,
      setHeaders: (res) => {
        res.setHeader('X-Content-Type-Options', 'nosniff');
        for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      },
    });

  const videoGate = (folder: 'videos' | 'posters'): RequestHandler =>
    route(async (req, _res, next) => {
      const name = req.path.slice(1);
      const video = STORED_NAME.test(name) ? await media.videoOfFile(folder, name) : null;
      if (!video || !(await media.maySee(video, req.session?.userId))) throw new HttpError(404, MESSAGES.notFound);
      next();
    });

  r.use('/profile_pics', serve('profile_pics'));
  r.use('/gifts', serve('gifts'));
  // visibility can change at any time: caches must ask again (a 304 when nothing changed)
  const privateMedia = { 'Cache-Control': 'private, no-cache' };
  r.use('/videos', deps.sessions.middleware(), videoGate('videos'), serve('videos', privateMedia));
  r.use('/posters', deps.sessions.middleware(), videoGate('posters'), serve('posters', privateMedia));
  r.use((_req, _res, next) => next(new HttpError(404, MESSAGES.notFound)));
  return r;
}
