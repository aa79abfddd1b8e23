import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import {
  DATA_EXPORT_MESSAGES,
  DATA_EXPORT_TTL_DAYS,
  accountDeletedIn,
  dataExportDecider,
  dataExportFileName,
  dataExportStream,
  userStream,
  type JobMap,
  type RecordedAppEvent,
} from '@evo/domain';
import {
  childLogger,
  handleCommand,
  loadState,
  systemContext,
  type EventStore,
  type FileStore,
  type JobContext,
} from '@evo/infra';
import { MemberDataCollector } from './member-data';
import { ARCHIVE_README } from './readme';

const log = childLogger('data-export');

/** progress is recorded at most this often (it is an event: a few per archive, not one per file) */
const PROGRESS_EVERY_MS = 1000;

export interface DataExportDeps {
  events: EventStore;
  files: FileStore;
  now?: () => Date;
}

/** The whole log read once, what concerns the member kept. */
async function collect(events: EventStore, memberId: string): Promise<MemberDataCollector> {
  const collector = new MemberDataCollector(memberId);
  for await (const batch of events.readAll(undefined, 1000))
    for (const e of batch) collector.add(e as RecordedAppEvent);
  return collector;
}

/**
 * Streams a ZIP to the file store: JSON files deflated, media files stored as they are (already
 * compressed), each read from the file store and written chunk by chunk with back-pressure, so a
 * member with gigabytes of videos costs no more memory than one chunk. Answers the archive's size
 * and the media paths written.
 */
async function writeArchive(
  files: FileStore,
  fileName: string,
  json: (stored: Set<string>) => Record<string, unknown>,
  media: Array<{ path: string; open: () => Promise<Readable | undefined> }>,
  when: Date,
  onMedia: (done: number) => Promise<void>,
): Promise<{ size: number; stored: Set<string> }> {
  const out = new PassThrough();
  const put = files.put('exports', fileName, out, { contentType: 'application/zip' });
  // a storage that fails stops the writer too (its `drain` would never come)
  put.catch((err: unknown) => out.destroy(err as Error));
  // its errors reach us through `put` (awaited below) and `drain`'s wait; unheard, they would crash the process
  out.on('error', () => undefined);
  const zip = new Zip((err, chunk, final) => {
    if (err) return void out.destroy(err);
    out.write(chunk);
    if (final) out.end();
  });
  const drained = async () => {
    if (out.writableNeedDrain) await once(out, 'drain');
  };
  const text = (name: string, body: string) => {
    const f = new ZipDeflate(name, { level: 6 });
    f.mtime = when;
    zip.add(f);
    f.push(new TextEncoder().encode(body), true);
  };
  const stored = new Set<string>();
  try {
    text('LISEZMOI.txt', ARCHIVE_README(when, DATA_EXPORT_TTL_DAYS));
    await drained();
    let done = 0;
    for (const m of media) {
      const body = await m.open();
      done++;
      if (!body) continue;
      const f = new ZipPassThrough(m.path);
      f.mtime = when;
      zip.add(f);
      for await (const chunk of body) {
        f.push(chunk as Uint8Array);
        await drained();
      }
      f.push(new Uint8Array(0), true);
      stored.add(m.path);
      await onMedia(done);
    }
    // the JSON files last: they name the media files actually in the archive
    for (const [name, value] of Object.entries(json(stored))) {
      text(name, `${JSON.stringify(value, null, 2)}\n`);
      await drained();
    }
    zip.end();
  } catch (err) {
    zip.terminate();
    out.destroy(err as Error);
    await put.catch(() => undefined);
    throw err;
  }
  const { size } = await put;
  return { size, stored };
}

/**
 * The 'data-export.build' job: reads the whole log for what concerns the member, writes the ZIP
 * (one JSON file per kind, the media files, a French README) to the file store's `exports` folder
 * and records `DataExportReady` (progress as `DataExportProgressed` on the way). Safe to run twice:
 * a job whose export is no longer the build in progress (already ready, or closed as interrupted)
 * does nothing, and an archive finished after that is removed. The last failed try records
 * `DataExportFailed`; an account deleted meanwhile gets its archive removed and the export failed.
 */
export function dataExportHandler(deps: DataExportDeps) {
  const now = deps.now ?? (() => new Date());
  return async (job: JobMap['data-export.build'], ctx: JobContext): Promise<void> => {
    const { events, files } = deps;
    const stream = dataExportStream(job.memberId);
    const { state } = await loadState(events, stream, dataExportDecider);
    if (state.building !== job.exportId) return;
    const fileName = dataExportFileName(job.exportId);
    const decide = (command: Parameters<typeof dataExportDecider.decide>[0]) =>
      handleCommand(events, stream, dataExportDecider, command, systemContext(now()));
    const fail = async (reason: string) => {
      await files.remove('exports', fileName);
      await decide({ type: 'FailDataExport', exportId: job.exportId, reason });
    };
    try {
      const collector = await collect(events, job.memberId);
      const media = collector.media();
      const total = media.length + 2;
      let lastProgress = 0;
      const progress = async (done: number, force = false) => {
        if (!force && Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
        lastProgress = Date.now();
        await decide({ type: 'RecordDataExportProgress', exportId: job.exportId, done, total, now: now() });
      };
      await progress(1, true);
      const exportedAt = now();
      const { size } = await writeArchive(
        files,
        fileName,
        (stored: Set<string>) => collector.files(stored, exportedAt),
        media.map((m) => ({ path: m.path, open: () => files.read(m.folder, m.name) })),
        exportedAt,
        (done) => progress(1 + done),
      );
      if (accountDeletedIn(await events.readStream(userStream(job.memberId))))
        return await fail(DATA_EXPORT_MESSAGES.accountDeleted);
      const r = await decide({
        type: 'CompleteDataExport',
        exportId: job.exportId,
        fileName,
        sizeBytes: size,
        now: now(),
      });
      // finished after its build was taken as dead (or a second run of a ready one): not the one handed out
      if (r.events.length === 0 && r.state.exports.get(job.exportId)?.fileName !== fileName)
        await files.remove('exports', fileName);
      log.info({ exportId: job.exportId, sizeBytes: size, mediaFiles: media.length }, 'data export ready');
    } catch (err) {
      log.error({ err, exportId: job.exportId, attempt: ctx.attempt }, 'data export failed');
      if (ctx.attempt >= ctx.attempts) await fail(DATA_EXPORT_MESSAGES.buildFailed);
      throw err;
    }
  };
}

/** Every archive file a member's exports may have left in the file store (their erasure removes them). */
export async function dataExportFiles(events: EventStore, memberId: string): Promise<string[]> {
  const { state } = await loadState(events, dataExportStream(memberId), dataExportDecider);
  return [...state.exports.keys()].map(dataExportFileName);
}
