import { Router, type RequestHandler } from 'express';
import { STORED_NAME } from '@evo/infra';
import { mediaQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, MESSAGES, route } from '../http/errors';
import { serveStoredFiles } from './serve-file';

/**
 * /uploads: one handler per folder we fill, streamed from the file store (a local folder or S3),
 * so `tmp/` (partial writes) is never served, whatever the path says. Profile pictures and gift
 * images are public; a video's file and poster are served only to whoever may see the video:
 * anyone while it is public (and not rejected), else its owner and administrators (visibility from
 * the read models). Refused or unknown: 404, as if the file did not exist.
 */
export function uploadsRouter(deps: AppDeps): Router {
  const { files } = deps.uploads;
  const media = mediaQueries(deps.read);
  const r = Router();
  const serve = (folder: 'videos' | 'posters' | 'profile_pics' | 'gifts', headers: Record<string, string> = {}) =>
    serveStoredFiles(files, folder, headers);

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
