import { copyFile, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { capped } from './capped-stream';
import { PRIVATE_FILE_MODE, makePrivateDir } from './private-files';
import { streamToFile } from './stream-to-file';
import {
  FILE_FOLDERS,
  STORED_NAME,
  type ByteRange,
  type FileFolder,
  type FileStore,
  type ListedFile,
  type PutOptions,
  type StoredFile,
} from './port';

const notFound = (e: unknown) => (e as NodeJS.ErrnoException)?.code === 'ENOENT';

/**
 * Files in a local folder (DATA_DIR/uploads): <root>/<folder>/<name>. A file is written in
 * <root>/tmp/ first, fsynced, then renamed to its name: a reader finds it whole or not at all.
 */
export class LocalFolderStore implements FileStore {
  readonly kind = 'local' as const;
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = path.join(root, 'tmp');
  }

  async ready(): Promise<void> {
    makePrivateDir(this.root);
    for (const d of ['tmp', ...FILE_FOLDERS]) makePrivateDir(path.join(this.root, d));
  }

  /** The file's path on this machine (the local store only: the workers read it in place). */
  pathOf(folder: FileFolder, name: string): string {
    if (!STORED_NAME.test(name)) throw new RangeError(`Not a stored file name: ${name}`);
    return path.join(this.root, folder, name);
  }

  async put(folder: FileFolder, name: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
    const target = this.pathOf(folder, name);
    const tmp = path.join(this.tmpDir, `${randomUUID()}.part`);
    const counter = capped(options.maxBytes);
    try {
      await streamToFile(body, tmp, { flags: 'wx', mode: PRIVATE_FILE_MODE, flush: true, through: counter });
      await rename(tmp, target);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    return { size: counter.bytes };
  }

  async stat(folder: FileFolder, name: string): Promise<StoredFile | undefined> {
    try {
      const s = await stat(this.pathOf(folder, name));
      if (!s.isFile()) return undefined;
      return {
        size: s.size,
        modifiedAt: s.mtime,
        etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`,
      };
    } catch (e) {
      if (notFound(e)) return undefined;
      throw e;
    }
  }

  async read(folder: FileFolder, name: string, range?: ByteRange): Promise<Readable | undefined> {
    const file = this.pathOf(folder, name);
    // opened before answering, so that a missing file is told apart from a failed read
    const fh = await open(file, 'r').catch((e: unknown) => {
      if (notFound(e)) return undefined;
      throw e;
    });
    if (!fh) return undefined;
    return fh.createReadStream({ autoClose: true, start: range?.start, end: range?.end });
  }

  async download(folder: FileFolder, name: string, toPath: string): Promise<boolean> {
    try {
      await copyFile(this.pathOf(folder, name), toPath);
      return true;
    } catch (e) {
      if (notFound(e)) return false;
      throw e;
    }
  }

  async remove(folder: FileFolder, name: string): Promise<void> {
    await rm(this.pathOf(folder, name), { force: true });
  }

  async *list(folder: FileFolder): AsyncIterable<ListedFile> {
    const dir = path.join(this.root, folder);
    const names = await readdir(dir).catch((e: unknown) => {
      if (notFound(e)) return [] as string[];
      throw e;
    });
    for (const name of names) {
      if (!STORED_NAME.test(name)) continue;
      const s = await stat(path.join(dir, name)).catch(() => undefined);
      if (s?.isFile()) yield { name, size: s.size, modifiedAt: s.mtime };
    }
  }

  async close(): Promise<void> {
    // nothing held open
  }
}
