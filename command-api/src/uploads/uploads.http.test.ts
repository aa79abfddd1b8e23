import { describe, it, expect } from 'vitest';
import type { VideoCard } from '@evo/contracts';
import { connect } from 'node:net';
import { get as httpGet } from 'node:http';
import { once } from 'node:events';
import { access, mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { videoProcessingHandler } from '@evo/workers';
import { UPLOAD_MESSAGES } from './upload-store';
import { VIDEO_MESSAGES } from '@evo/domain';
import {
  Client,
  PNG_1PX,
  demoVideo,
  newMember,
  registerAndLogin,
  registrationForm,
  startTestServer,
} from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { eventually, loginAdmin } from '../admin/test-helpers';
import { freePort, spawnProduct, waitReady } from '../testing/product-process';

const t = serverFixture();

const tmpFiles = () => readdir(path.join(t.server.deps.uploads.localRoot!, 'tmp'));
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Send a multipart request on a raw connection and go away without reading the answer: after the
 * whole body (`part` 1), or half-way through it (`part` 0.5: the server sees the request aborted).
 */
async function sendAndLeave(
  base: string,
  pathname: string,
  form: FormData,
  options: { cookie?: string; part?: number } = {},
) {
  const encoded = new Request(base + pathname, { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  const headers = [
    `POST ${pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    `Content-Type: ${encoded.headers.get('content-type')}`,
    `Content-Length: ${body.length}`,
    ...(options.cookie ? [`Cookie: ${options.cookie}`] : []),
  ];
  const sent = body.subarray(0, Math.floor(body.length * (options.part ?? 1)));
  await new Promise<void>((resolve) =>
    socket.write(`${headers.join('\r\n')}\r\n\r\n`, () => socket.write(sent, () => resolve())),
  );
  socket.destroy();
}

/** GET on a raw connection, the path sent exactly as written (no normalisation by a client). */
async function rawGetStatus(base: string, pathname: string): Promise<number> {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
  let answer = '';
  for await (const chunk of socket) answer += String(chunk);
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
}

describe('temporary upload files', () => {
  it('removes the parts of a refused registration or upload whose client left after sending the body', async () => {
    // anonymous: a registration refused for its fields, carrying a picture and a "video"
    for (let i = 0; i < 5; i++) {
      const form = await registrationForm({ ...newMember(), pseudo: '' }, { video: Buffer.from('pas une vidéo') });
      await sendAndLeave(t.server.url, '/api/auth/register', form);
    }
    // a member: an upload refused for its content
    const { client } = await t.member();
    for (let i = 0; i < 5; i++) {
      const form = new FormData();
      form.append('title', 'Titre');
      form.append('video', new Blob([new Uint8Array(Buffer.from('pas une vidéo'))], { type: 'video/mp4' }), 'x.mp4');
      await sendAndLeave(t.server.url, '/api/videos/upload', form, { cookie: client.cookie });
    }
    await new Promise((r) => setTimeout(r, 300));
    await eventually(async () => (await tmpFiles()).length === 0, 5000, 'an empty uploads/tmp');
  });

  it('never serves tmp/, whatever the path', async () => {
    const name = 'c0ffee00-0000-4000-8000-000000000000';
    await writeFile(path.join(t.server.deps.uploads.localRoot!, 'tmp', name), PNG_1PX);
    try {
      expect((await fetch(`${t.server.url}/uploads/tmp/${name}`)).status).toBe(404);
      for (const p of [
        `/uploads/tmp/${name}`,
        `/uploads/videos/../tmp/${name}`,
        `/uploads//tmp/${name}`,
        `/uploads/profile_pics/../tmp/${name}`,
      ]) {
        expect(await rawGetStatus(t.server.url, p), p).toBe(404);
      }
      // what is meant to be public still is
      expect((await fetch(`${t.server.url}/uploads/profile_pics/default.png`)).status).toBe(200);
    } finally {
      await rm(path.join(t.server.deps.uploads.localRoot!, 'tmp', name), { force: true });
    }
  });

  it('caps each file field at its own limit while it streams: a 30 MB "picture" is refused with a 413 before 30 MB are written', async () => {
    const files = t.server.deps.uploads.files;
    const put = files.put.bind(files);
    let written = 0;
    files.put = (folder, name, body, options) => {
      body.on('data', (c: Buffer) => (written += c.length));
      return put(folder, name, body, options);
    };
    try {
      const picture = Buffer.concat([PNG_1PX, Buffer.alloc(30 * 1024 * 1024, 1)]);
      const r = await new Client(t.server.url).post(
        '/api/auth/register',
        await registrationForm(newMember(), { picture }),
      );
      expect(r.status).toBe(413);
      expect(r.json.error).toBe(UPLOAD_MESSAGES.imageTooLarge(t.server.deps.config.MAX_IMAGE_MB));
      // at most the image cap (and one chunk past it) went to storage, none of it kept
      expect(written).toBeLessThan(t.server.deps.config.MAX_IMAGE_MB * 1024 * 1024 + 1024 * 1024);
      expect(await tmpFiles()).toEqual([]);
    } finally {
      files.put = put;
    }
  });

  it('sweeps orphan video files and posters at start once past the grace period, and spares the others', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-orphans-'));
    let started = await startTestServer({}, dir);
    try {
      const { client, member } = await registerAndLogin(started.url);
      await started.settle(30_000);
      const [video] = (await client.get(`/api/users/profile/${member.pseudo}`)).json.videos as VideoCard[];
      await started.stop();
      const videos = path.join(dir, 'uploads', 'videos');
      const posters = path.join(dir, 'uploads', 'posters');
      const old = new Date(Date.now() - 2 * 3600_000);
      // left by a crash between storing an upload and recording it, two hours ago
      for (const f of [
        path.join(videos, 'c0ffee00-0000-4000-8000-000000000001.mp4'),
        path.join(posters, '424242.jpg'),
      ]) {
        await writeFile(f, 'x');
        await utimes(f, old, old);
      }
      // and one a minute ago: maybe an upload in flight in another process
      await writeFile(path.join(videos, 'c0ffee00-0000-4000-8000-000000000002.mp4'), 'x');
      // the real video's files are old too: named by an event, they stay
      for (const f of [path.join(dir, video.file_path.slice(1)), path.join(dir, video.poster!.slice(1))])
        await utimes(f, old, old);
      started = await startTestServer({}, dir);
      await eventually(
        async () => !(await exists(path.join(videos, 'c0ffee00-0000-4000-8000-000000000001.mp4'))),
        10_000,
        'the old orphan swept',
      );
      expect(await exists(path.join(posters, '424242.jpg'))).toBe(false);
      expect(await exists(path.join(videos, 'c0ffee00-0000-4000-8000-000000000002.mp4'))).toBe(true);
      expect(await exists(path.join(dir, video.file_path.slice(1)))).toBe(true);
      expect(await exists(path.join(dir, video.poster!.slice(1)))).toBe(true);
    } finally {
      await started.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sweeps tmp/ at start', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-sweep-'));
    const tmp = path.join(dir, 'uploads', 'tmp');
    await mkdir(tmp, { recursive: true });
    await writeFile(path.join(tmp, 'left-by-a-crash'), 'x');
    const old = new Date(Date.now() - 3600_000);
    await utimes(path.join(tmp, 'left-by-a-crash'), old, old);
    const started = await startTestServer({}, dir);
    try {
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await started.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('who may download a video file', () => {
  const status = async (client: Client | undefined, url: string) =>
    client ? (await client.get(url)).status : (await fetch(t.server.url + url)).status;

  async function myVideos(client: Client, pseudo: string): Promise<VideoCard[]> {
    await t.server.settle(30_000);
    return (await client.get(`/api/users/profile/${pseudo}`)).json.videos as VideoCard[];
  }

  it('serves a video an administrator deleted or hid, and its poster, only to its owner and administrators', async () => {
    const owner = await t.member();
    const other = await t.member();
    const admin = await loginAdmin(t.server);
    const form = new FormData();
    form.append('title', 'Deuxième');
    form.append('video', new Blob([new Uint8Array(await demoVideo())], { type: 'video/mp4' }), 'x.mp4');
    expect((await owner.client.post('/api/videos/upload', form)).status).toBe(201);
    const [second, first] = await myVideos(owner.client, owner.member.pseudo);
    expect(first.poster).toMatch(/^\/uploads\/posters\//);
    for (const url of [first.file_path, first.poster!, second.file_path]) {
      for (const who of [undefined, other.client, owner.client, admin]) expect(await status(who, url), url).toBe(200);
    }

    expect((await admin.delete(`/api/videos/${first.id}`)).status).toBe(200);
    expect((await admin.put(`/api/videos/${second.id}/visibility`, { status: 'masquée' })).status).toBe(200);
    // both writes are in the read models once their authors read again
    await owner.client.get(`/api/users/profile/${owner.member.pseudo}`);
    await admin.get('/api/admin/stats');
    for (const url of [first.file_path, first.poster!, second.file_path, second.poster!]) {
      expect(await status(undefined, url), url).toBe(404);
      expect(await status(other.client, url), url).toBe(404);
      expect(await status(owner.client, url), url).toBe(200);
      expect(await status(admin, url), url).toBe(200);
    }

    // public again: everyone again
    expect((await admin.put(`/api/videos/${second.id}/visibility`, { status: 'publique' })).status).toBe(200);
    await admin.get('/api/admin/stats');
    expect(await status(other.client, second.file_path)).toBe(200);
    expect(await status(undefined, second.poster!)).toBe(200);
    // a name no video has
    expect(await status(owner.client, '/uploads/videos/00000000-0000-4000-8000-000000000000.mp4')).toBe(404);
  });

  it("erases a video's file and poster when its owner deletes it: gone for everyone, and it cannot be brought back", async () => {
    const owner = await t.member();
    const admin = await loginAdmin(t.server);
    const [video] = await myVideos(owner.client, owner.member.pseudo);
    expect(video.poster).toMatch(/^\/uploads\/posters\//);
    const stored = (url: string) =>
      t.server.deps.uploads.files.stat(url.split('/')[2] as 'videos' | 'posters', url.split('/')[3]);
    expect(await stored(video.file_path)).toBeDefined();
    expect(await stored(video.poster!)).toBeDefined();

    expect((await owner.client.delete(`/api/videos/${video.id}`)).status).toBe(200);
    expect(await stored(video.file_path)).toBeUndefined();
    expect(await stored(video.poster!)).toBeUndefined();
    await admin.get('/api/admin/stats');
    for (const url of [video.file_path, video.poster!]) {
      expect(await status(owner.client, url), url).toBe(404);
      expect(await status(admin, url), url).toBe(404);
    }
    const back = await admin.put(`/api/videos/${video.id}/visibility`, { status: 'publique' });
    expect(back.status).toBe(409);
    expect(back.json.error).toBe(VIDEO_MESSAGES.erasedByOwner);
  });

  it('streams byte ranges of a video, as a <video> element asks for them', async () => {
    const { client, member } = await t.member();
    const [video] = await myVideos(client, member.pseudo);
    const whole = Buffer.from(await (await fetch(t.server.url + video.file_path)).arrayBuffer());
    const part = await fetch(t.server.url + video.file_path, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${whole.length}`);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(100, 1100));
    const tail = await fetch(t.server.url + video.file_path, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 10));
    const beyond = await fetch(t.server.url + video.file_path, { headers: { range: `bytes=${whole.length + 5}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    const etag = part.headers.get('etag')!;
    // (node:http: fetch adds Cache-Control: no-cache to a conditional request)
    const conditional = await new Promise<number>((resolve, reject) =>
      httpGet(t.server.url + video.file_path, { headers: { 'if-none-match': etag } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject),
    );
    expect(conditional).toBe(304);
  });

  it('removes a file rejected by processing, once and again', async () => {
    const { client, member } = await t.member();
    // an MP4 header followed by garbage: recognised by its first bytes, unreadable by ffprobe
    const fake = Buffer.concat([(await demoVideo()).subarray(0, 32), Buffer.alloc(4096, 7)]);
    const form = new FormData();
    form.append('title', 'Cassée');
    form.append('video', new Blob([new Uint8Array(fake)], { type: 'video/mp4' }), 'x.mp4');
    expect((await client.post('/api/videos/upload', form)).status).toBe(201);
    const rejected = (await myVideos(client, member.pseudo)).find((v) => v.title === 'Cassée')!;
    expect(rejected.processing).toBe('rejetée');
    const onDisk = path.join(t.server.deps.uploads.localRoot!, rejected.file_path.replace(/^\/uploads\//, ''));
    expect(await exists(onDisk)).toBe(false);
    expect(await status(client, rejected.file_path)).toBe(404);
    // the job again (a redelivery): nothing to probe, nothing fails, still no file
    const handler = videoProcessingHandler({ events: t.server.deps.events, files: t.server.deps.uploads.files });
    await handler({ videoId: rejected.id, filePath: rejected.file_path }, { jobId: 'again', attempt: 2, attempts: 3 });
    expect(await exists(onDisk)).toBe(false);
  });
});

describe('aborted uploads', () => {
  it('are logged as the client going away, not as errors', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'evo-abort-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const product = spawnProduct({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'debug' });
    try {
      await waitReady(base, product);
      for (let i = 0; i < 5; i++) {
        const form = await registrationForm(newMember(), {
          video: Buffer.concat([await demoVideo(), await demoVideo()]),
        });
        await sendAndLeave(base, '/api/auth/register', form, { part: 0.5 });
      }
      const alive = () => product.child.exitCode === null && product.child.signalCode === null;
      await eventually(
        () => !alive() || product.output().includes('client went away'),
        10_000,
        'a line about the aborted uploads',
      );
      // an aborted upload once ended the whole process (an 'error' event nothing listened to)
      expect(alive(), product.output()).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      const lines = product
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { stack?: string } });
      const errors = lines.filter((l) => l.level >= 50);
      expect(errors.map((l) => l.msg)).toEqual([]);
      const aborted = lines.filter((l) => l.msg === 'client went away');
      expect(aborted.length).toBeGreaterThan(0);
      for (const l of aborted) {
        expect(l.level).toBeLessThanOrEqual(30);
        expect(l.err).toBeUndefined();
      }
    } finally {
      await product.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
