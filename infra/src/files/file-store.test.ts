import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../services';
import { freePort } from '../testing/ferretdb';
import { s3ServerAvailability, startMinio, type S3Server } from '../testing/minio';
import { TcpProxy } from '../testing/tcp-proxy';
import { chunked, collect, fileStoreContract } from './file-store.contract';
import { LocalFolderStore } from './local-folder-store';
import { S3FileStore, isS3Unavailable } from './s3-file-store';

fileStoreContract('local folder', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'evo-local-store-'));
  const store = new LocalFolderStore(root);
  return { store, cleanup: () => rm(root, { recursive: true, force: true }) };
});

describe('LocalFolderStore specifics', () => {
  it('leaves no partial file in tmp/ after a refused or broken upload', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'evo-local-store-'));
    try {
      const store = new LocalFolderStore(root);
      await store.ready();
      await expect(store.put('videos', 'a.mp4', chunked(randomBytes(5000)), { maxBytes: 100 })).rejects.toThrow();
      expect(await readdir(path.join(root, 'tmp'))).toEqual([]);
      expect(await readdir(path.join(root, 'videos'))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

const s3 = s3ServerAvailability();
if (!s3.ok) console.warn(`[skip] S3 file store: ${s3.reason}`);

describe.skipIf(!s3.ok)('S3FileStore on MinIO', () => {
  let server: S3Server;
  beforeAll(async () => {
    server = await startMinio();
  }, 30 * 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  const settings = (endpoint = server.endpoint, bucket = `evo-contract-${randomBytes(3).toString('hex')}`) =>
    server.settings(bucket, endpoint);

  fileStoreContract('s3 (MinIO)', async () => {
    const store = new S3FileStore(settings());
    return { store, cleanup: () => store.close() };
  });

  it('makes its bucket when missing, and leaves a made one as it is', async () => {
    const s = settings();
    const first = new S3FileStore(s);
    await first.ready();
    await first.put('gifts', 'a.png', chunked(Buffer.from('x')));
    const second = new S3FileStore(s);
    await second.ready();
    expect((await second.stat('gifts', 'a.png'))?.size).toBe(1);
    await Promise.all([first.close(), second.close()]);
  });

  it('processes starting together on a missing bucket all start: one makes it, the others find it made', async () => {
    const s = settings();
    const stores = Array.from({ length: 6 }, () => new S3FileStore(s));
    await Promise.all(stores.map((store) => store.ready()));
    await stores[0].put('gifts', 'a.png', chunked(Buffer.from('x')));
    expect((await stores[5].stat('gifts', 'a.png'))?.size).toBe(1);
    await Promise.all(stores.map((store) => store.close()));
  });

  it('the storage away: calls fail with ServiceUnavailableError, nothing half-written is left, then it recovers', async () => {
    const proxy = new TcpProxy(await freePort(), { host: '127.0.0.1', port: server.port });
    await proxy.open();
    const s = settings(`http://127.0.0.1:${proxy.port}`);
    const store = new S3FileStore(s, { connectTimeoutMs: 1000, requestTimeoutMs: 5000 });
    const direct = new S3FileStore({ ...s, endpoint: server.endpoint });
    try {
      await store.ready();
      // an upload cut in the middle: its source keeps coming while the storage goes away
      const big = randomBytes(24 * 1024 * 1024);
      const cut = store.put('videos', 'cut.mp4', chunked(big, 128 * 1024)).then(
        () => 'stored',
        (e: unknown) => e,
      );
      const away = new Promise<void>((resolve) => setTimeout(() => void proxy.close().then(resolve), 150));
      const outcome = await cut;
      // an upload done before the cut (a quick machine) must not let the next call through either
      await away;
      if (outcome !== 'stored') expect(outcome).toBeInstanceOf(ServiceUnavailableError);
      await expect(store.put('videos', 'away.mp4', chunked(Buffer.alloc(10)))).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
      await expect(store.stat('videos', 'away.mp4')).rejects.toBeInstanceOf(ServiceUnavailableError);
      // stored whole or not at all
      const kept = await direct.stat('videos', 'cut.mp4');
      if (outcome === 'stored') expect(kept?.size).toBe(big.length);
      else expect(kept).toBeUndefined();
      expect(await direct.stat('videos', 'away.mp4')).toBeUndefined();

      await proxy.open();
      await store.put('videos', 'back.mp4', chunked(Buffer.from('de retour')));
      expect((await collect(await direct.read('videos', 'back.mp4'))).toString()).toBe('de retour');
    } finally {
      await proxy.close();
      await Promise.all([store.close(), direct.close()]);
    }
  });

  it('tells the storage away from a fault of the request', () => {
    expect(
      isS3Unavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    // no route to the storage's network: away too, as for PostgreSQL (SERVER_AWAY_ERRNOS)
    expect(
      isS3Unavailable(Object.assign(new Error('connect ENETUNREACH 10.0.0.1:9000'), { code: 'ENETUNREACH' })),
    ).toBe(true);
    expect(isS3Unavailable(Object.assign(new Error('x'), { $metadata: { httpStatusCode: 503 } }))).toBe(true);
    expect(
      isS3Unavailable(Object.assign(new Error('denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } })),
    ).toBe(false);
  });
});
