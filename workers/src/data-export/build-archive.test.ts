import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import {
  DATA_EXPORT_MESSAGES as M,
  DATA_EXPORT_TTL_MS,
  dataExportDecider,
  dataExportFileName,
  dataExportStream,
  userStream,
} from '@evo/domain';
import {
  LocalFolderStore,
  SqliteEventStore,
  handleCommand,
  loadState,
  systemContext,
  toNewEvents,
  type FileStore,
} from '@evo/infra';
import { S3FileStore } from '@evo/infra';
import { s3ServerAvailability, startMinio } from '@evo/infra/testing/minio';
import { dataExportHandler } from './build-archive';
import { sweepExpiredExports } from './sweep';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function setup(store?: FileStore) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-export-'));
  dirs.push(dir);
  const files = store ?? new LocalFolderStore(dir);
  await files.ready();
  const events = new SqliteEventStore(':memory:');
  const stream = userStream('m');
  await events.append(
    stream,
    toNewEvents(
      [
        {
          type: 'UserRegistered',
          data: { userId: 'm', email: 'm@test.fr', pseudo: 'mia', passwordHash: 'x', bio: '', profilePicture: 'p.png' },
        },
      ],
      stream,
      systemContext(),
    ),
    'no_stream',
  );
  await files.put('profile_pics', 'p.png', Readable.from([Buffer.from('image')]));
  const request = (exportId: string) =>
    handleCommand(
      events,
      dataExportStream('m'),
      dataExportDecider,
      {
        type: 'RequestDataExport',
        exportId,
        memberId: 'm',
        requestedBy: 'm',
        byAdmin: false,
        accountDeleted: false,
        now: new Date(),
      },
      systemContext(),
    );
  const state = async () => (await loadState(events, dataExportStream('m'), dataExportDecider)).state;
  return { files, events, request, state };
}

/** a file store whose writes to `exports` fail (a full disk, the bucket away) */
const failingExports = (files: FileStore): FileStore =>
  Object.assign(Object.create(files) as FileStore, {
    put: (folder: string, ...rest: unknown[]) =>
      folder === 'exports'
        ? Promise.reject(new Error('disque plein'))
        : (files.put as (...a: unknown[]) => Promise<{ size: number }>)(folder, ...rest),
  });

describe("the 'data-export.build' job", () => {
  it('writes the ZIP to the file store and records it ready; a second run does nothing', async () => {
    const { files, events, request, state } = await setup();
    await request('x1');
    const run = dataExportHandler({ events, files });
    await run({ exportId: 'x1', memberId: 'm' }, { jobId: 'j', attempt: 1, attempts: 3 });
    const after = await state();
    expect(after.exports.get('x1')).toMatchObject({ status: 'ready', fileName: dataExportFileName('x1') });
    const zip = unzipSync(new Uint8Array(await streamBytes(await files.read('exports', dataExportFileName('x1')))));
    expect(JSON.parse(strFromU8(zip['profile.json']))).toMatchObject({
      pseudo: 'mia',
      profile_picture: 'media/profile/p.png',
    });
    expect(strFromU8(zip['media/profile/p.png'])).toBe('image');
    const revision = (await events.readStream(dataExportStream('m'))).length;
    await run({ exportId: 'x1', memberId: 'm' }, { jobId: 'j', attempt: 1, attempts: 3 });
    expect((await events.readStream(dataExportStream('m'))).length).toBe(revision);
  });

  it('records the failure at its last try only, and leaves no file', async () => {
    const { files, events, request, state } = await setup();
    await request('x1');
    const run = dataExportHandler({ events, files: failingExports(files) });
    await expect(run({ exportId: 'x1', memberId: 'm' }, { jobId: 'j', attempt: 1, attempts: 2 })).rejects.toThrow();
    expect((await state()).exports.get('x1')?.status).toBe('building');
    await expect(run({ exportId: 'x1', memberId: 'm' }, { jobId: 'j', attempt: 2, attempts: 2 })).rejects.toThrow();
    expect((await state()).exports.get('x1')?.status).toBe('failed');
    const failed = (await events.readStream(dataExportStream('m'))).at(-1)!;
    expect(failed).toMatchObject({ type: 'DataExportFailed', data: { reason: M.buildFailed } });
    expect(await files.stat('exports', dataExportFileName('x1'))).toBeUndefined();
  });

  it('an account deleted during the build gets no archive', async () => {
    const { files, events, request, state } = await setup();
    await request('x1');
    const stream = userStream('m');
    await events.append(
      stream,
      toNewEvents([{ type: 'AccountDeleted', data: { userId: 'm' } }], stream, systemContext()),
      'stream_exists',
    );
    await dataExportHandler({ events, files })(
      { exportId: 'x1', memberId: 'm' },
      { jobId: 'j', attempt: 1, attempts: 3 },
    );
    expect((await state()).exports.get('x1')?.status).toBe('failed');
    expect(await files.stat('exports', dataExportFileName('x1'))).toBeUndefined();
  });

  it('the sweep removes archives past their 7 days only', async () => {
    const { files } = await setup();
    await files.put('exports', 'evo-donnees-a.zip', Readable.from([Buffer.from('PK')]));
    expect(await sweepExpiredExports(files, new Date(Date.now() + DATA_EXPORT_TTL_MS - 60_000))).toEqual([]);
    expect(await sweepExpiredExports(files, new Date(Date.now() + DATA_EXPORT_TTL_MS + 1000))).toEqual([
      'evo-donnees-a.zip',
    ]);
    expect(await files.stat('exports', 'evo-donnees-a.zip')).toBeUndefined();
  });
});

async function streamBytes(body: Readable | undefined): Promise<Buffer> {
  expect(body).toBeDefined();
  const chunks: Buffer[] = [];
  for await (const c of body!) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

const s3 = s3ServerAvailability();

describe.skipIf(!s3.ok)("the 'data-export.build' job on S3-compatible storage (MinIO)", () => {
  it('streams an archive larger than one upload part to the bucket, the video byte for byte', async () => {
    const minio = await startMinio();
    const bucket = new S3FileStore(minio.settings(`evo-exports-${Date.now().toString(36)}`));
    try {
      const { files, events, request, state } = await setup(bucket);
      // 20 MB of video: several multipart parts, read and written chunk by chunk
      const video = Buffer.alloc(20 * 1024 * 1024, 7);
      video.write('EVO', 0);
      await files.put('videos', 'v.mp4', Readable.from([video.subarray(0, 10_000_000), video.subarray(10_000_000)]));
      const stream = 'video-1';
      await events.append(
        stream,
        toNewEvents(
          [
            {
              type: 'VideoUploaded',
              data: {
                videoId: 1,
                ownerId: 'm',
                title: 'Vacances',
                description: '',
                filePath: '/uploads/videos/v.mp4',
                mimeType: 'video/mp4',
                sizeBytes: video.length,
              },
            },
          ],
          stream,
          systemContext(),
        ),
        'no_stream',
      );
      await request('x1');
      await dataExportHandler({ events, files })(
        { exportId: 'x1', memberId: 'm' },
        { jobId: 'j', attempt: 1, attempts: 3 },
      );
      expect((await state()).exports.get('x1')?.status).toBe('ready');
      const zip = unzipSync(new Uint8Array(await streamBytes(await files.read('exports', dataExportFileName('x1')))));
      const [entry] = JSON.parse(strFromU8(zip['videos.json'])) as Array<{ file: string }>;
      expect(entry.file).toBe('media/videos/1.mp4');
      expect(Buffer.from(zip['media/videos/1.mp4']).equals(video)).toBe(true);
    } finally {
      await bucket.close();
      await minio.stop();
    }
  }, 120_000);
});
