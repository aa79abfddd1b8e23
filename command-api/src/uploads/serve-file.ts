import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import rangeParser from 'range-parser';
import { STORED_NAME, type ByteRange, type FileFolder, type FileStore, type StoredFile } from '@evo/infra';
import { route } from '../http/errors';

/** the types of what we store (we pick every extension: see file-kind.ts) */
const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  '3gp': 'video/3gpp',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  ogv: 'video/ogg',
  avi: 'video/x-msvideo',
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** If-Range: the range holds only for the same file (its ETag, or a date not before its last change). */
function rangeStillValid(req: Request, info: StoredFile): boolean {
  const ifRange = req.get('if-range');
  if (!ifRange) return true;
  if (ifRange.includes('"')) return ifRange === info.etag;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && Math.floor(info.modifiedAt.getTime() / 1000) <= Math.floor(date / 1000);
}

/**
 * GET and HEAD of the files of one folder, streamed from the file store (a local folder or S3),
 * with what a browser's <video> needs: ETag and Last-Modified (and 304), byte ranges (206, 416).
 * A name that is not one we generate, or that the store does not have, goes on to the next handler
 * (a 404 there).
 */
export function serveStoredFiles(
  files: FileStore,
  folder: FileFolder,
  headers: Record<string, string> = {},
): RequestHandler {
  return route(async (req: Request, res: Response, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (!STORED_NAME.test(name)) return next();
    const info = await files.stat(folder, name);
    if (!info) return next();

    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'public, max-age=0');
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('ETag', info.etag);
    res.setHeader('Last-Modified', info.modifiedAt.toUTCString());
    res.setHeader(
      'Content-Type',
      CONTENT_TYPES[path.extname(name).slice(1).toLowerCase()] ?? 'application/octet-stream',
    );
    if (req.fresh) {
      res.status(304).end();
      return;
    }

    let range: ByteRange | undefined;
    const asked = req.headers.range;
    if (asked && rangeStillValid(req, info)) {
      const ranges = rangeParser(info.size, asked, { combine: true });
      if (ranges === -1) {
        res.setHeader('Content-Range', `bytes */${info.size}`);
        res.status(416).end();
        return;
      }
      // a malformed header is ignored, as are several ranges at once: the whole file
      if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) range = ranges[0];
    }
    if (range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
    }
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : info.size));
    if (req.method === 'HEAD' || info.size === 0) {
      res.end();
      return;
    }
    const body = await files.read(folder, name, range);
    if (!body) {
      // removed between the two calls
      res.removeHeader('Content-Range');
      res.removeHeader('Content-Length');
      res.status(200);
      return next();
    }
    // the client may go away mid-file (a seek in a video): that is no error of ours
    await pipeline(body, res).catch(() => body.destroy());
  });
}
