import { open, rm, type FileHandle } from 'node:fs/promises';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StreamToFileOptions {
  /** 'wx': the file must not exist yet; 'w' (the default): made or replaced */
  flags?: 'w' | 'wx';
  mode?: number;
  /** fsynced before it is closed */
  flush?: boolean;
  /** a stream every byte goes through on its way (a counter that refuses past a cap, say) */
  through?: Transform;
}

/**
 * `body` written to `file`. The file is opened before a byte is read: a write stream opening it
 * itself could finish after a failed copy's cleanup and leave an empty file behind (seen on CI).
 * The body waits meanwhile, even one a listener had set flowing, so that nothing of it is lost,
 * and an error it meets meanwhile (the client gone) fails the copy: unheard, it would end the
 * process. On failure the body is destroyed and the file removed.
 */
export async function streamToFile(body: Readable, file: string, options: StreamToFileOptions = {}): Promise<void> {
  const { flags = 'w', mode, flush = false, through } = options;
  body.pause();
  let failedWhileOpening: { error: unknown } | undefined;
  const keepError = (error: unknown) => (failedWhileOpening ??= { error });
  body.on('error', keepError);
  let fh: FileHandle;
  try {
    fh = await open(file, flags, mode);
  } catch (e) {
    body.destroy();
    throw e;
  } finally {
    body.off('error', keepError);
  }
  if (failedWhileOpening) {
    await fh.close();
    await rm(file, { force: true });
    throw failedWhileOpening.error;
  }
  // the stream owns the handle: it closes it (fsynced first with `flush`) before the pipeline ends
  const sink = fh.createWriteStream({ flush });
  try {
    await (through ? pipeline(body, through, sink) : pipeline(body, sink));
  } catch (e) {
    await rm(file, { force: true });
    throw e;
  }
}
