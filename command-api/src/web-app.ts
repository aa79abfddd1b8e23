import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import compression from 'compression';
import { Router, type Request, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
// the web app's route table (plain data, no React): which paths are screens and which are not
import { isAppRoute } from '@evo/contracts';
import { socialQueries } from '@evo/projections';
import type { AppDeps } from './deps';
import { route } from './http/errors';

/** Vite names every file under /assets/ after a hash of its content: a new build, new names. */
const HASHED = `${path.sep}assets${path.sep}`;
export const CACHE_HASHED = 'public, max-age=31536000, immutable';
/** the other built files (filters, samples, MediaPipe's files): kept an hour, then checked (304) */
export const CACHE_OTHER = 'public, max-age=3600';
/** the page itself names the current build's assets: always checked */
export const CACHE_PAGE = 'no-cache';

/** what a link to any page shows where it is shared */
export const SITE_DESCRIPTION = 'EVO : partage tes vidéos, tes lives et tes moments entre amis.';

/**
 * The built web app (web/dist): its files as the build precompressed them (`.br`, then `.gz`, as
 * the browser accepts; web/vite.config.ts writes them), hashed files cached for a year, and the
 * page for every path of the client-side router, compressed at each answer (it is small, and
 * only the page is). A path that has no screen is answered 404 with the same page (which shows
 * "Page introuvable"), so that robots and link checkers see it. The page carries its title and
 * preview metadata (Open Graph), read before any script runs: a shared link to a public video
 * shows its title, author and poster.
 */
export function webAppRouter(dist: string, deps: Pick<AppDeps, 'read'>): Router {
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
  const social = socialQueries(deps.read);
  r.get(
    /^(?!\/(api|uploads|socket\.io)\/).*/,
    compression(),
    route(async (req, res) => {
      const known = isAppRoute(req.path);
      const head = known ? ((await videoHead(req, social)) ?? siteHead(req)) : siteHead(req);
      sendPage(res, known ? 200 : 404, withHead(await page(), head));
    }),
  );
  return r;
}

/** What a page's <head> says of it to whoever reads it without running the app (link previews). */
export interface PageHead {
  title: string;
  description: string;
  /** Open Graph properties, in order */
  og: Array<[string, string]>;
}

const VIDEO_PATH = /^\/video\/([1-9]\d{0,14})\/?$/;

/** the site's own origin as the request reached it (behind a proxy, as TRUST_PROXY allows) */
const originOf = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/** an uploaded file's absolute URL ('/uploads/…' as stored, or a bare name in `folder`) */
function uploadUrl(req: Request, stored: string, folder: string): string {
  const p = stored.startsWith('/') ? stored : `/uploads/${folder}/${encodeURIComponent(stored)}`;
  return originOf(req) + p;
}

function siteHead(req: Request): PageHead {
  return {
    title: 'EVO',
    description: SITE_DESCRIPTION,
    og: [
      ['og:site_name', 'EVO'],
      ['og:locale', 'fr_FR'],
      ['og:type', 'website'],
      ['og:title', 'EVO'],
      ['og:description', SITE_DESCRIPTION],
      ['og:url', originOf(req) + req.path],
    ],
  };
}

/** /video/:id of a public video (from the read models, as a visitor may see it); else undefined */
async function videoHead(req: Request, social: ReturnType<typeof socialQueries>): Promise<PageHead | undefined> {
  const id = VIDEO_PATH.exec(req.path)?.[1];
  if (!id) return undefined;
  const found = await social.video(Number(id), undefined);
  if (!found?.visible) return undefined;
  const v = found.video;
  const title = v.title.trim() || 'Sans titre';
  const author = v.user_pseudo ? `@${v.user_pseudo}` : '@inconnu';
  const description = v.description.trim() || `Une vidéo de ${author} sur EVO.`;
  const og: Array<[string, string]> = [
    ['og:site_name', 'EVO'],
    ['og:locale', 'fr_FR'],
    ['og:type', 'video.other'],
    ['og:title', `${title} · ${author}`],
    ['og:description', description],
    ['og:url', `${originOf(req)}/video/${v.id}`],
  ];
  if (v.poster) og.push(['og:image', uploadUrl(req, v.poster, 'posters')], ['og:image:alt', title]);
  og.push(['og:video', uploadUrl(req, v.file_path, 'videos')]);
  return { title: `${title} · EVO`, description, og };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** index.html with the page's title, description and Open Graph tags (and a large card for others) */
export function withHead(html: string, head: PageHead): string {
  const tags = [
    ...head.og.map(([property, content]) => `<meta property="${property}" content="${escapeHtml(content)}" />`),
    `<meta name="twitter:card" content="${head.og.some(([p]) => p === 'og:image') ? 'summary_large_image' : 'summary'}" />`,
  ];
  // replacement functions: a `$` in a title is text, not a replacement pattern
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(head.title)}</title>`)
    .replace(
      /<meta name="description" content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${escapeHtml(head.description)}" />`,
    )
    .replace('</head>', () => `    ${tags.join('\n    ')}\n  </head>`);
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
