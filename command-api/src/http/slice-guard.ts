import type { RequestHandler, Router } from 'express';

/** a first path segment that can only match itself (no parameter, wildcard or optional part) */
const LITERAL_SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** What Express keeps of a router's stack (router 2.x: `stack` of layers with `rawPath` and `route`). */
interface StackLayer {
  rawPath?: unknown;
  route?: unknown;
  handle?: unknown;
}

/**
 * The first path segments (lower-cased) a router's routes can match, or undefined when it may
 * answer others too: a middleware for every path, a route whose first segment is a parameter or
 * a pattern, anything this cannot read. Nested routers mounted without a path are read through.
 */
export function firstSegmentsOf(router: unknown): Set<string> | undefined {
  const stack = (router as { stack?: unknown }).stack;
  if (!Array.isArray(stack)) return undefined;
  const segments = new Set<string>();
  for (const layer of stack as StackLayer[]) {
    const paths = Array.isArray(layer.rawPath) ? (layer.rawPath as unknown[]) : [layer.rawPath];
    for (const path of paths) {
      if (typeof path !== 'string') return undefined;
      if (path === '/' && !layer.route) {
        // a middleware or a router mounted without a path: only a router can be read through
        const nested = firstSegmentsOf(layer.handle);
        if (!nested) return undefined;
        for (const s of nested) segments.add(s);
        continue;
      }
      const first = path.split('/')[1] ?? '';
      if (!LITERAL_SEGMENT.test(first)) return undefined;
      segments.add(first.toLowerCase());
    }
  }
  return segments;
}

/** The first segment of a request's path, lower-cased (Express matches routes case aside). */
function firstSegmentOf(url: string): string {
  let end = 1;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
    end++;
  }
  return url.slice(1, end).toLowerCase();
}

/**
 * A slice's router, entered only by requests whose first path segment starts one of its routes.
 * Express tries each route of each router mounted on /api in turn (a regular expression each): a
 * gift send went through some fifty routes of other slices before its own. A request the router
 * could not answer skips it, which is what Express would have concluded; a router this cannot
 * read is always entered.
 */
export function sliceGuard(router: Router): RequestHandler {
  const segments = firstSegmentsOf(router);
  if (!segments) return router;
  const guard: RequestHandler = (req, res, next) =>
    segments.has(firstSegmentOf(req.url)) ? router(req, res, next) : next();
  // the router's routes stay visible where routes are listed (as for a router mounted itself)
  return Object.assign(guard, { stack: router.stack });
}
