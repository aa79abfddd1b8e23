import { mkdir, rename, rm, copyFile, access, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { DEFAULT_PROFILE_PICTURE } from '@evo/domain';
import { ClientGoneError, HttpError } from '../http/errors';
import { detectFileKind, type FileKind } from './file-kind';

export const UPLOAD_MESSAGES = {
  videoRequired: 'La vidéo est obligatoire.',
  pictureRequired: 'La photo de profil est obligatoire.',
  notAVideo: "Le fichier envoyé n'est pas une vidéo reconnue.",
  notAnImage: "Le fichier envoyé n'est pas une image reconnue (JPEG, PNG, GIF ou WebP).",
  imageTooLarge: (mb: number) => `Image trop volumineuse (maximum ${mb} Mo).`,
} as const;

// found through the package, not this file's location: the same from the sources and from the server bundle
const ASSETS = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@evo/command-api')), '../assets');

/**
 * Files under DATA_DIR/uploads, always with names we generate: videos/, profile_pics/, gifts/.
 * Multipart parts land in tmp/ first and move once their content is recognised.
 */
export class UploadStore {
  readonly tmpDir: string;
  constructor(
    readonly root: string,
    readonly limits: { maxVideoBytes: number; maxImageBytes: number },
  ) {
    this.tmpDir = path.join(root, 'tmp');
  }

  /**
   * Create the folders and sweep tmp/: what a crash or a vanished client left there is never used.
   * `sweepOlderThanMs` spares recent files, which may be uploads in flight in another process
   * sharing the folder (the distributed stack's API replicas); the single process sweeps all.
   */
  async init(options: { sweepOlderThanMs?: number } = {}): Promise<number> {
    for (const d of ['tmp', 'videos', 'profile_pics', 'gifts', 'posters'])
      await mkdir(path.join(this.root, d), { recursive: true });
    const def = path.join(this.root, 'profile_pics', DEFAULT_PROFILE_PICTURE);
    await access(def).catch(() => copyFile(path.join(ASSETS, DEFAULT_PROFILE_PICTURE), def));
    return this.sweepTemp(options.sweepOlderThanMs ?? 0);
  }

  /** Files kept from uploads (videos, posters, pictures, gift images), the shipped default picture aside. */
  async storedFileCount(): Promise<number> {
    let count = 0;
    for (const folder of ['videos', 'posters', 'profile_pics', 'gifts']) {
      const names = await readdir(path.join(this.root, folder)).catch(() => [] as string[]);
      count += names.filter((n) => !(folder === 'profile_pics' && n === DEFAULT_PROFILE_PICTURE)).length;
    }
    return count;
  }

  /** Remove the files of tmp/ not modified for `olderThanMs`; answers how many went. */
  async sweepTemp(olderThanMs: number): Promise<number> {
    const limit = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of await readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info || (olderThanMs > 0 && info.mtimeMs > limit)) continue;
      await rm(file, { force: true, recursive: true });
      removed++;
    }
    return removed;
  }

  /** multer accepting the named file fields into tmp/ with random names. */
  multipart(fields: Array<{ name: string; maxCount: number }>): RequestHandler {
    const upload = multer({
      storage: multer.diskStorage({
        destination: this.tmpDir,
        filename: (_req, _file, cb) => cb(null, randomUUID()),
      }),
      limits: { fileSize: this.limits.maxVideoBytes, files: fields.length, fields: 20, fieldSize: 64 * 1024 },
    });
    const handler = upload.fields(fields);
    // whatever happens next, temp files are removed once the response is over: 'close' comes after
    // a sent answer and also when the client went away first ('finish' never comes then)
    return (req, res, next) => {
      let closed = false;
      res.once('close', () => {
        closed = true;
        void this.discardTemp(req.files);
      });
      handler(req, res, (err?: unknown) => {
        // the client left while its parts were being written: nobody will read an answer
        if (closed && !res.writableFinished) {
          void this.discardTemp(req.files);
          return next(err ?? new ClientGoneError());
        }
        next(err);
      });
    };
  }

  async discardTemp(files: unknown): Promise<void> {
    const list = filesOf(files);
    // a part still being written has no path yet: multer removes those itself when it aborts
    const written = list.filter((f) => typeof f?.path === 'string' && f.path.startsWith(this.tmpDir));
    await Promise.all(written.map((f) => rm(f.path, { force: true })));
  }

  /** Check the content and keep the file: answers the stored name (relative to its folder). */
  async keep(
    file: Express.Multer.File,
    as: 'video' | 'image',
    folder: 'videos' | 'profile_pics' | 'gifts',
  ): Promise<{ name: string; kind: FileKind }> {
    // the client may have gone and its temp files with it ('close' above): nothing to keep then
    const kind = await detectFileKind(file.path).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') throw new ClientGoneError();
      throw e;
    });
    if (!kind || kind.kind !== as)
      throw new HttpError(400, as === 'video' ? UPLOAD_MESSAGES.notAVideo : UPLOAD_MESSAGES.notAnImage);
    if (as === 'image' && file.size > this.limits.maxImageBytes) {
      throw new HttpError(413, UPLOAD_MESSAGES.imageTooLarge(Math.round(this.limits.maxImageBytes / 1024 / 1024)));
    }
    const name = `${randomUUID()}.${kind.ext}`;
    await rename(file.path, path.join(this.root, folder, name)).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') throw new ClientGoneError();
      throw e;
    });
    return { name, kind };
  }

  async remove(folder: 'videos' | 'profile_pics' | 'gifts', name: string): Promise<void> {
    if (name === DEFAULT_PROFILE_PICTURE || name.includes('/') || name.includes('..')) return;
    await rm(path.join(this.root, folder, name), { force: true });
  }

  /** Copy a file shipped with the product (demo data) into uploads. */
  async importAsset(assetRelative: string, folder: 'videos' | 'profile_pics' | 'gifts'): Promise<string> {
    const name = `${randomUUID()}${path.extname(assetRelative)}`;
    await copyFile(path.join(ASSETS, assetRelative), path.join(this.root, folder, name));
    return name;
  }
}

function filesOf(files: unknown): Express.Multer.File[] {
  if (!files) return [];
  if (Array.isArray(files)) return files as Express.Multer.File[];
  return Object.values(files as Record<string, Express.Multer.File[]>).flat();
}

export function firstFile(req: { files?: unknown }, field: string): Express.Multer.File | undefined {
  const files = req.files as Record<string, Express.Multer.File[]> | undefined;
  return files?.[field]?.[0];
}
