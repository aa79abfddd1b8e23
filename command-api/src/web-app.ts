import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import compression from 'compression';
import { Router, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
// the web app's route table (plain data, no React): which paths are screens and which are not
import { isAppRoute } from '@evo/contracts';
import { route } from './http/errors';

/** Vite names every file under /assets/ after a hash of its content: a new build, new names. */
const HASHED = `${path.sep}assets${path.sep}`;
export const CACHE_HASHED = 'public, max-age=31536000, immutable';
/** the other built files (filters, samples, MediaPipe's files): kept an hour, then checked (304) */
export const CACHE_OTHER = 'public, max-age=3600';
/** the page itself names the current build's assets: always checked */
export const CACHE_PAGE = 'no-cache';

/**
 * The built web app (web/dist): its files as the build precompressed them (`.br`, then `.gz`, as
 * the browser accepts; web/vite.config.ts writes them), hashed files cached for a year, and the
 * page for every path of the client-side router, compressed at each answer (it is small, and
 * only the page is). A path that has no screen is answered 404 with the same page (which shows
 * "Page introuvable"), so that robots and link checkers see it.
 */
export function webAppRouter(dist: string): Router {
  const r = Router();
  r.use(
    expressStaticGzip(dist, {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      index: false,
      serveStatic: {
        index: false,
        // Cache-Control is set here, for the file actually sent (`x.js.br` for `x.js`)
        cacheControl: false,
        setHeaders: (res, file) => res.setHeader('Cache-Control', file.includes(HASHED) ? CACHE_HASHED : CACHE_OTHER),
      },
    }),
  );

  const page = pageTemplate(path.join(dist, 'index.html'));
  r.get(
    /^(?!\/(api|uploads|socket\.io)\/).*/,
    compression(),
    route(async (req, res) => {
      sendPage(res, isAppRoute(req.path) ? 200 : 404, await page());
    }),
  );
  return r;
}

function sendPage(res: Response, status: number, html: string) {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': CACHE_PAGE }).send(html);
}

/** index.html, read again only when the build replaced it */
function pageTemplate(file: string): () => Promise<string> {
  let cached: { mtimeMs: number; html: string } | undefined;
  return async () => {
    const { mtimeMs } = await stat(file);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: await readFile(file, 'utf8') };
    return cached.html;
  };
}
