import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files';

/**
 * Writes `file` so that a reader sees its previous content or the new one, never a part of it:
 * `write` fills a temporary file beside it, which is fsynced and renamed over the target, then the
 * folder is fsynced (so that the rename survives a crash). On a failure the temporary file is
 * removed and the target left as it was.
 */
export async function writeFileAtomically(file: string, write: (fh: FileHandle) => Promise<void>): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  // data files are the owner's only (private-files.ts)
  const fh = await open(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    await write(fh);
    await fh.sync();
    await fh.close();
    await rename(tmp, file);
  } catch (e) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
  try {
    const dir = await open(path.dirname(file), 'r');
    await dir.sync().finally(() => dir.close());
  } catch {
    // some file systems refuse to fsync a folder; the rename is still atomic there
  }
}
