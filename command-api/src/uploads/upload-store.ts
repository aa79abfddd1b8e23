import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { DEFAULT_PROFILE_PICTURE } from '@evo/domain';
import { FileTooLargeError, LocalFolderStore, type FileFolder, type FileStore } from '@evo/infra';
import { ClientGoneError, HttpError } from '../http/errors';
import { detectKind, type FileKind } from './file-kind';

export const UPLOAD_MESSAGES = {
  videoRequired: 'La vidéo est obligatoire.',
  pictureRequired: 'La photo de profil est obligatoire.',
  notAVideo: "Le fichier envoyé n'est pas une vidéo reconnue.",
  notAnImage: "Le fichier envoyé n'est pas une image reconnue (JPEG, PNG, GIF ou WebP).",
  imageTooLarge: (mb: number) => `Image trop volumineuse (maximum ${mb} Mo).`,
} as const;

// found through the package, not this file's location: the same from the sources and from the server bundle
const ASSETS = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@evo/command-api')), '../assets');

/** the folders an upload can go to */
export type UploadFolder = Extract<FileFolder, 'videos' | 'profile_pics' | 'gifts'>;

/** A multipart file field: what it must hold, and where it goes. */
export interface FileField {
  name: string;
  maxCount: number;
  as: 'video' | 'image';
  folder: UploadFolder;
}

/** What the storage engine below sets on each file multer hands over (`req.files`). */
export interface StoredUpload extends Express.Multer.File {
  /** the stored name, in `folder` */
  filename: string;
  folder: UploadFolder;
  kind: FileKind;
  /** taken by a route (`keep`): the request's end leaves it in place */
  kept?: boolean;
  /** removed because the request ended before a route took it */
  discarded?: boolean;
}

/** the first bytes of each part, enough to recognise the file (file-kind.ts) */
const HEAD_BYTES = 64;

/**
 * The first `n` bytes of a part (fewer if it ends first), and a stream of all its bytes, those
 * included. The part itself is never destroyed from here (multer would take that for the
 * request's failure): a refused body only stops being read, and multer drains the request.
 */
async function sniff(part: Readable, n: number): Promise<{ head: Buffer; body: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  const ended = await new Promise<boolean>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= n) {
        part.pause();
        cleanup();
        resolve(false);
      }
    };
    const onEnd = () => {
      cleanup();
      resolve(true);
    };
    const onError = (err: unknown) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      part.off('data', onData);
      part.off('end', onEnd);
      part.off('error', onError);
    };
    part.on('data', onData);
    part.on('end', onEnd);
    part.on('error', onError);
  });
  const first = Buffer.concat(chunks);
  const body = new PassThrough();
  body.write(first);
  if (ended) body.end();
  else {
    part.once('error', (err) => body.destroy(err));
    part.pipe(body);
  }
  return { head: first.subarray(0, n), body };
}

/**
 * Uploads, into the file store (a local folder, or S3): each file part is recognised by its first
 * bytes (never by the client's name or type) and streamed straight to its place under a name we
 * generate, capped at its field's own limit while it comes (an image field at MAX_IMAGE_MB, a video
 * field at MAX_VIDEO_MB: nothing past the cap is written anywhere). A route takes what it uses
 * (`keep`); whatever it did not take when the answer is over is removed. A crash in between leaves
 * files no event names: swept at start after a grace period (`sweepOrphans`).
 */
export class UploadStore {
  constructor(
    readonly files: FileStore,
    readonly limits: { maxVideoBytes: number; maxImageBytes: number },
  ) {}

  /** DATA_DIR/uploads when the files are local (the tmp/ of partial writes), else undefined */
  get localRoot(): string | undefined {
    return this.files instanceof LocalFolderStore ? this.files.root : undefined;
  }

  /**
   * The storage ready (folders or bucket), the default profile picture in it, and (local folder)
   * tmp/ swept: what a crash left there is never used. `sweepOlderThanMs` spares recent files,
   * which may be writes in flight in another process sharing the folder.
   */
  async init(options: { sweepOlderThanMs?: number } = {}): Promise<number> {
    await this.files.ready();
    if (!(await this.files.stat('profile_pics', DEFAULT_PROFILE_PICTURE))) {
      await this.files.put(
        'profile_pics',
        DEFAULT_PROFILE_PICTURE,
        createReadStream(path.join(ASSETS, DEFAULT_PROFILE_PICTURE)),
        {
          contentType: 'image/png',
        },
      );
    }
    return this.sweepTemp(options.sweepOlderThanMs ?? 0);
  }

  /** Files kept from uploads (videos, posters, pictures, gift images), the shipped default picture aside. */
  async storedFileCount(): Promise<number> {
    let count = 0;
    for (const folder of ['videos', 'posters', 'profile_pics', 'gifts'] as const) {
      for await (const f of this.files.list(folder)) {
        if (!(folder === 'profile_pics' && f.name === DEFAULT_PROFILE_PICTURE)) count++;
      }
    }
    return count;
  }

  /** Remove the partial writes of tmp/ (local folder) not modified for `olderThanMs`; answers how many went. */
  async sweepTemp(olderThanMs: number): Promise<number> {
    const root = this.localRoot;
    if (!root) return 0;
    const tmp = path.join(root, 'tmp');
    const limit = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of await readdir(tmp).catch(() => [] as string[])) {
      const file = path.join(tmp, name);
      const info = await stat(file).catch(() => undefined);
      if (!info || (olderThanMs > 0 && info.mtimeMs > limit)) continue;
      await rm(file, { force: true, recursive: true });
      removed++;
    }
    return removed;
  }

  /** multer accepting the named file fields, each streamed to the store as its field says. */
  multipart(fields: FileField[]): RequestHandler {
    const byName = new Map(fields.map((f) => [f.name, f]));
    const storage: multer.StorageEngine = {
      _handleFile: (_req, file, cb) => {
        const field = byName.get(file.fieldname)!;
        this.store(file.stream, field).then(
          (stored) => cb(null, stored),
          (err: unknown) => cb(err as Error),
        );
      },
      _removeFile: (_req, file, cb) => {
        const f = file as StoredUpload;
        this.files.remove(f.folder, f.filename).then(
          () => cb(null),
          (err: unknown) => cb(err as Error),
        );
      },
    };
    const upload = multer({
      storage,
      limits: {
        fileSize: Math.max(this.limits.maxVideoBytes, this.limits.maxImageBytes),
        files: fields.reduce((n, f) => n + f.maxCount, 0),
        fields: 20,
        fieldSize: 64 * 1024,
      },
    });
    const handler = upload.fields(fields.map(({ name, maxCount }) => ({ name, maxCount })));
    // whatever happens next, files no route took are removed once the response is over: 'close'
    // comes after a sent answer and also when the client went away first ('finish' never comes then)
    return (req, res, next) => {
      let closed = false;
      res.once('close', () => {
        closed = true;
        void this.discardUntaken(req);
      });
      handler(req, res, (err?: unknown) => {
        // the client left while its parts were being written: nobody will read an answer
        if (closed && !res.writableFinished) {
          void this.discardUntaken(req);
          return next(err ?? new ClientGoneError());
        }
        next(err);
      });
    };
  }

  /** One part: recognised, then streamed under a new name within its field's cap. */
  private async store(
    stream: Readable,
    field: FileField,
  ): Promise<Pick<StoredUpload, 'filename' | 'folder' | 'kind' | 'size'>> {
    const { head, body } = await sniff(stream, HEAD_BYTES);
    const kind = detectKind(head);
    if (!kind || kind.kind !== field.as) {
      body.destroy();
      throw new HttpError(400, field.as === 'video' ? UPLOAD_MESSAGES.notAVideo : UPLOAD_MESSAGES.notAnImage);
    }
    const maxBytes = field.as === 'video' ? this.limits.maxVideoBytes : this.limits.maxImageBytes;
    const filename = `${randomUUID()}.${kind.ext}`;
    try {
      const { size } = await this.files.put(field.folder, filename, body, { contentType: kind.mime, maxBytes });
      return { filename, folder: field.folder, kind, size };
    } catch (err) {
      if (!(err instanceof FileTooLargeError)) throw err;
      if (field.as === 'image') {
        throw new HttpError(413, UPLOAD_MESSAGES.imageTooLarge(Math.round(this.limits.maxImageBytes / 1024 / 1024)));
      }
      throw new multer.MulterError('LIMIT_FILE_SIZE', field.name);
    }
  }

  /** Removes what the request's routes did not take (the request is over). */
  async discardUntaken(req: Request): Promise<void> {
    const untaken = filesOf(req.files).filter((f) => !f.kept && !f.discarded && f.filename);
    for (const f of untaken) f.discarded = true;
    await Promise.all(untaken.map((f) => this.files.remove(f.folder, f.filename).catch(() => undefined)));
  }

  /** Take an uploaded file (checked as `as` while it came): answers its stored name. */
  async keep(
    file: Express.Multer.File,
    as: 'video' | 'image',
    folder: UploadFolder,
  ): Promise<{ name: string; kind: FileKind }> {
    const f = file as StoredUpload;
    // the client went away and the file with it ('close' above): nothing to keep then
    if (f.discarded) throw new ClientGoneError();
    if (f.kind.kind !== as || f.folder !== folder) {
      throw new HttpError(400, as === 'video' ? UPLOAD_MESSAGES.notAVideo : UPLOAD_MESSAGES.notAnImage);
    }
    f.kept = true;
    return { name: f.filename, kind: f.kind };
  }

  async remove(folder: FileFolder, name: string): Promise<void> {
    if (name === DEFAULT_PROFILE_PICTURE || name.includes('/') || name.includes('..')) return;
    await this.files.remove(folder, name);
  }

  /** Copy a file shipped with the product (demo data) into the store: its stored name and size. */
  async importAsset(assetRelative: string, folder: UploadFolder): Promise<{ name: string; size: number }> {
    const name = `${randomUUID()}${path.extname(assetRelative)}`;
    const { size } = await this.files.put(folder, name, createReadStream(path.join(ASSETS, assetRelative)));
    return { name, size };
  }
}

function filesOf(files: unknown): StoredUpload[] {
  if (!files) return [];
  if (Array.isArray(files)) return files as StoredUpload[];
  return Object.values(files as Record<string, StoredUpload[]>).flat();
}

export function firstFile(req: { files?: unknown }, field: string): Express.Multer.File | undefined {
  const files = req.files as Record<string, Express.Multer.File[]> | undefined;
  return files?.[field]?.[0];
}
