// Files in S3-compatible storage (MinIO built from the Go module proxy, see tools/minio/build.sh):
// uploads stream to the bucket, the worker fetches the video to probe it and stores its poster,
// the API serves both with ranges under today's URLs and rules, an owner's deletion erases the
// objects, the storage away answers a French 503 with nothing half-written named by an event, and
// orphan objects are swept at start.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoCard } from '@evo/contracts';
import { S3FileStore, type FileFolder } from '@evo/infra';
import { freePort } from '@evo/infra/testing/ferretdb';
import { s3ServerAvailability, startMinio, type S3Server } from '@evo/infra/testing/minio';
import { TcpProxy } from '@evo/infra/testing/tcp-proxy';
import { Readable } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { loginAdmin } from '../admin/test-helpers';
import { MESSAGES } from '../http/errors';
import { demoVideo, registerAndLogin, startTestServer, type TestServer } from '../testing/test-server';

const s3 = s3ServerAvailability();
const DEFAULT_PICTURE_ASSET = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets/default.png');
if (!s3.ok) console.warn(`[skip] uploads on S3: ${s3.reason}`);

describe.skipIf(!s3.ok)('uploads in S3-compatible storage (MinIO)', { timeout: 120_000 }, () => {
  let minio: S3Server;
  let proxy: TcpProxy;
  let server: TestServer;
  let bucket: S3FileStore;
  const bucketName = `evo-uploads-${randomBytes(3).toString('hex')}`;
  let dataDir: string;
  const env = () => ({ ...minio.env(bucketName), S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` });

  beforeAll(async () => {
    minio = await startMinio();
    // the API reaches the storage through a proxy of the test's own, to cut it away
    proxy = new TcpProxy(await freePort(), { host: '127.0.0.1', port: minio.port });
    await proxy.open();
    dataDir = await mkdtemp(path.join(tmpdir(), 'evo-s3-uploads-'));
    server = await startTestServer(env(), dataDir);
    bucket = new S3FileStore(minio.settings(bucketName));
  }, 30 * 60_000);
  afterAll(async () => {
    await server?.stop();
    await bucket?.close();
    await proxy?.close();
    await minio?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const inBucket = (url: string) => bucket.stat(url.split('/')[2] as FileFolder, url.split('/')[3]);
  async function myVideos(client: { get: (u: string) => Promise<{ json: Record<string, unknown> }> }, pseudo: string) {
    await server.settle(60_000);
    return (await client.get(`/api/users/profile/${pseudo}`)).json.videos as VideoCard[];
  }

  it('a registration video goes to the bucket, is probed by the worker, gets its poster there, and is served with ranges', async () => {
    expect(server.deps.uploads.files.kind).toBe('s3');
    const { client, member } = await registerAndLogin(server.url);
    const [video] = await myVideos(client, member.pseudo);
    expect(video.processing).toBe('prête');
    expect(video.file_path).toMatch(/^\/uploads\/videos\/[0-9a-f-]+\.mp4$/);
    expect(video.poster).toBe(`/uploads/posters/${video.id}.jpg`);
    const original = await demoVideo();
    expect((await inBucket(video.file_path))?.size).toBe(original.length);

    const part = await fetch(server.url + video.file_path, { headers: { range: 'bytes=10-209' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-209/${original.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(original.subarray(10, 210));
    const poster = await fetch(server.url + video.poster!);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    // a JPEG (its start-of-image marker), the very file the bucket holds
    const posterBytes = Buffer.from(await poster.arrayBuffer());
    expect(posterBytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect((await inBucket(video.poster!))?.size).toBe(posterBytes.length);
    // the profile picture too, and the shipped default one
    const me = await client.get('/api/auth/me');
    const picture = (me.json.user as { profile_picture?: string } | undefined)?.profile_picture ?? '';
    if (picture) expect((await fetch(`${server.url}/uploads/profile_pics/${picture}`)).status).toBe(200);
    expect((await fetch(`${server.url}/uploads/profile_pics/default.png`)).status).toBe(200);
  });

  it('a hidden video is served only to its owner and administrators; its owner deleting it erases both objects', async () => {
    const owner = await registerAndLogin(server.url);
    const other = await registerAndLogin(server.url);
    const admin = await loginAdmin(server);
    const [video] = await myVideos(owner.client, owner.member.pseudo);
    expect((await admin.put(`/api/videos/${video.id}/visibility`, { status: 'masquée' })).status).toBe(200);
    await admin.get('/api/admin/stats');
    for (const url of [video.file_path, video.poster!]) {
      expect((await other.client.get(url)).status, url).toBe(404);
      expect((await fetch(server.url + url)).status, url).toBe(404);
      expect((await owner.client.get(url)).status, url).toBe(200);
      expect((await admin.get(url)).status, url).toBe(200);
    }
    expect((await owner.client.delete(`/api/videos/${video.id}`)).status).toBe(200);
    expect(await inBucket(video.file_path)).toBeUndefined();
    expect(await inBucket(video.poster!)).toBeUndefined();
  });

  it('the storage away: an upload answers a French 503, nothing half-written is kept or named by an event; then uploads work again', async () => {
    const { client, member } = await registerAndLogin(server.url);
    const before = new Set<string>();
    for await (const f of bucket.list('videos')) before.add(f.name);
    await proxy.close();
    try {
      const form = new FormData();
      form.append('title', 'Pendant la panne');
      form.append('video', new Blob([new Uint8Array(await demoVideo())], { type: 'video/mp4' }), 'x.mp4');
      const r = await client.post('/api/videos/upload', form);
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ error: MESSAGES.unavailable });
    } finally {
      await proxy.open();
    }
    const after: string[] = [];
    for await (const f of bucket.list('videos')) if (!before.has(f.name)) after.push(f.name);
    expect(after).toEqual([]);
    const titles: string[] = [];
    for await (const batch of server.deps.events.readAll()) {
      for (const e of batch) if (e.type === 'VideoUploaded') titles.push((e.data as { title: string }).title);
    }
    expect(titles).not.toContain('Pendant la panne');

    const form = new FormData();
    form.append('title', 'Après la panne');
    form.append('video', new Blob([new Uint8Array(await demoVideo())], { type: 'video/mp4' }), 'x.mp4');
    const ok = await client.post('/api/videos/upload', form);
    expect(ok.status, ok.text).toBe(201);
    const videos = await myVideos(client, member.pseudo);
    expect(videos.find((v) => v.title === 'Après la panne')?.processing).toBe('prête');
  });

  it('orphan objects (an upload no event names) are swept at start after the grace period; named ones stay', async () => {
    const { client, member } = await registerAndLogin(server.url);
    const [kept] = await myVideos(client, member.pseudo);
    const orphanVideo = 'c0ffee00-0000-4000-8000-00000000dead.mp4';
    const orphanPoster = '999999999.jpg';
    await bucket.put('videos', orphanVideo, Readable.from([Buffer.alloc(100)]));
    await bucket.put('posters', orphanPoster, Readable.from([Buffer.alloc(10)]));
    // with the default grace period (an hour), a restart spares them: they may be uploads in flight
    await server.stop();
    server = await startTestServer(env(), dataDir);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await bucket.stat('videos', orphanVideo)).toBeDefined();
    // past it (here: no grace), they go; what a video names stays
    await server.stop();
    server = await startTestServer({ ...env(), ORPHAN_FILES_GRACE_MINUTES: '0' }, dataDir);
    const deadline = Date.now() + 20_000;
    // the sweep runs beside the start: wait for both folders' orphans
    while (
      ((await bucket.stat('videos', orphanVideo)) || (await bucket.stat('posters', orphanPoster))) &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 100));
    expect(await bucket.stat('videos', orphanVideo)).toBeUndefined();
    expect(await bucket.stat('posters', orphanPoster)).toBeUndefined();
    expect(await inBucket(kept.file_path)).toBeDefined();
    expect(await inBucket(kept.poster!)).toBeDefined();
    // the shipped default picture stays, whole
    expect((await bucket.stat('profile_pics', 'default.png'))?.size).toBe((await stat(DEFAULT_PICTURE_ASSET)).size);
  });
});
