import { mkdir, rename, rm, copyFile, access } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { DEFAULT_PROFILE_PICTURE } from '@evo/domain';
import { HttpError } from '../http/errors';
import { detectFileKind, type FileKind } from './file-kind';

export const UPLOAD_MESSAGES = {
  videoRequired: 'La vidéo est obligatoire.',
  pictureRequired: 'La photo de profil est obligatoire.',
  notAVideo: "Le fichier envoyé n'est pas une vidéo reconnue.",
  notAnImage: "Le fichier envoyé n'est pas une image reconnue (JPEG, PNG, GIF ou WebP).",
  imageTooLarge: (mb: number) => `Image trop volumineuse (maximum ${mb} Mo).`,
} as const;

const ASSETS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets');

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

  async init(): Promise<void> {
    for (const d of ['tmp', 'videos', 'profile_pics', 'gifts', 'posters']) await mkdir(path.join(this.root, d), { recursive: true });
    const def = path.join(this.root, 'profile_pics', DEFAULT_PROFILE_PICTURE);
    await access(def).catch(() => copyFile(path.join(ASSETS, DEFAULT_PROFILE_PICTURE), def));
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
    // whatever happens next, temp files are removed once the response is sent
    return (req, res, next) => {
      res.on('finish', () => void this.discardTemp(req.files));
      handler(req, res, next);
    };
  }

  async discardTemp(files: unknown): Promise<void> {
    const list = filesOf(files);
    await Promise.all(list.filter((f) => f.path.startsWith(this.tmpDir)).map((f) => rm(f.path, { force: true })));
  }

  /** Check the content and keep the file: answers the stored name (relative to its folder). */
  async keep(file: Express.Multer.File, as: 'video' | 'image', folder: 'videos' | 'profile_pics' | 'gifts'): Promise<{ name: string; kind: FileKind }> {
    const kind = await detectFileKind(file.path);
    if (!kind || kind.kind !== as) throw new HttpError(400, as === 'video' ? UPLOAD_MESSAGES.notAVideo : UPLOAD_MESSAGES.notAnImage);
    if (as === 'image' && file.size > this.limits.maxImageBytes) {
      throw new HttpError(413, UPLOAD_MESSAGES.imageTooLarge(Math.round(this.limits.maxImageBytes / 1024 / 1024)));
    }
    const name = `${randomUUID()}.${kind.ext}`;
    await rename(file.path, path.join(this.root, folder, name));
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
