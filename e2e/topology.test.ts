// The distributed topology with no shared disk, every part a separate OS process started the way an
// operator starts them: events in PostgreSQL (a database of this run's own on the machine's server),
// read models in FerretDB (MongoDB wire protocol), files in MinIO (S3, built from the Go module
// proxy), the machine's Redis for jobs, pushes and sessions (keys under a prefix of this run's own),
// TWO `start:api` processes on two ports, one `start:projections`, one `start:workers`, each with
// its own empty DATA_DIR: nothing passes through a disk two processes share. (The same topology on
// one shared SQLite file was the previous configuration: this one covers all it did.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { MongoClient } from 'mongodb';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import {
  DEMO_ADMIN_EMAIL,
  DEMO_ADMIN_PASSWORD,
  IdBlocks,
  MongoReadStore,
  PersonalDataEventStore,
  PostgresEventStore,
  PostgresKeyStore,
  S3FileStore,
  systemContext,
} from '@evo/infra';
import { createTestDatabase, postgresAvailability, type TestDatabase } from '@evo/infra/testing/postgres';
import { s3ServerAvailability, startMinio, type S3Server } from '@evo/infra/testing/minio';
import { MESSAGES, MODERATION_MESSAGES, type RecordedEvent } from '@evo/domain';
import { freePort, mongoServerAvailability, startMongoServer, type MongoServer } from '@evo/infra/testing/ferretdb';
import { dumpReadModels } from '@evo/projections/testing/read-model-dump';
import { Client, demoVideo, registerAndLogin, type Member } from '@evo/command-api/testing/test-server';
import { AUTH_ROUTE_MESSAGES, uploadVideo } from '@evo/command-api';
import {
  ROOT,
  deleteRedisKeys,
  eventually,
  redisReachable,
  redisUrl,
  serviceEnv,
  spawnService,
  stopAllServices,
  TcpProxy,
  waitForStatus,
  type ServiceProcess,
} from './topology-harness';
import { browserSkipReason, ensureWebBuild, launchBrowser, logInAs } from './harness';
import { ADMIN } from './helpers';

const mongo = mongoServerAvailability();
const redisOk = await redisReachable();
const onCi = process.env.CI === 'true';
const postgres = await postgresAvailability();
const s3 = s3ServerAvailability();
const skipReason = !mongo.ok
  ? mongo.reason
  : !redisOk
    ? `no Redis at ${redisUrl()}`
    : !postgres.ok
      ? postgres.reason
      : !s3.ok
        ? s3.reason
        : undefined;
if (skipReason && onCi) throw new Error(`topology test cannot run on CI: ${skipReason}`);
if (skipReason) console.warn(`[skip] distributed topology: ${skipReason}`);

const browserSkip = browserSkipReason();
if (!skipReason && browserSkip) console.warn(`[skip] the topology's back-office screen: ${browserSkip}`);

/** `url` naming the database `name` (the rest of the URL, options included, kept) */
function withDatabase(url: string, name: string): string {
  // not new URL(): a replica set's URL lists several hosts
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(url);
  if (!m) throw new Error(`not a MongoDB URL: ${url}`);
  return `${m[1]}/${name}${m[2] ?? ''}`;
}

async function dropDatabases(url: string, names: string[]): Promise<void> {
  const client = new MongoClient(url);
  try {
    for (const name of names) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}

describe.skipIf(skipReason !== undefined)('distributed topology (separate processes)', { timeout: 180_000 }, () => {
  const startedAt = Date.now();
  const prefix = `evo-topo-${process.pid}-${randomBytes(4).toString('hex')}`;
  const database = prefix.replaceAll('-', '_');
  /** each process's own DATA_DIR, all under this one */
  let dataDirs: string;
  let ferret: MongoServer;
  let db: TestDatabase;
  let minio: S3Server;
  let bucket: S3FileStore;
  const bucketName = `evo-topo-${randomBytes(4).toString('hex')}`;
  let env: Record<string, string>;
  let apiA: ServiceProcess;
  let apiB: ServiceProcess;
  let projections: ServiceProcess;
  let workers: ServiceProcess;
  let urlA: string;
  let urlB: string;
  let log: PersonalDataEventStore;
  const sockets: Socket[] = [];

  /** a new empty DATA_DIR for one process */
  const ownDataDir = (name: string) => mkdtempSync(path.join(dataDirs, `${name.replace(/\W+/g, '-')}-`));
  const startApi = (name: string, port: number, extra: Record<string, string> = {}) =>
    spawnService('api', name, { ...env, DATA_DIR: ownDataDir(name), PORT: String(port), ...extra });
  const startProjections = (extra: Record<string, string> = {}) =>
    spawnService('projections', 'projections', { ...env, DATA_DIR: ownDataDir('projections'), ...extra });
  // LOG_LEVEL info: the worker's "job started" line tells the test a job is running
  const startWorkers = (extra: Record<string, string> = {}) =>
    spawnService('workers', 'workers', { ...env, DATA_DIR: ownDataDir('workers'), LOG_LEVEL: 'info', ...extra });

  /** every event of the shared log */
  async function allEvents(): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    for await (const batch of log.readAll(undefined, 5000)) out.push(...batch);
    return out;
  }

  beforeAll(async () => {
    dataDirs = mkdtempSync(path.join(tmpdir(), 'evo-topology-'));
    // the API replicas serve the web app when it is built (CI builds it before the tests)
    if (!browserSkip) ensureWebBuild();
    // a FerretDB of this file's own, or the MongoDB at MONGO_URL (databases of this run's own);
    // a PostgreSQL database and a MinIO of this run's own
    [ferret, db, minio] = await Promise.all([startMongoServer(), createTestDatabase('topology'), startMinio()]);
    const [portA, portB, healthP, healthW] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    env = {
      EVENTSTORE_URL: db.url,
      ...minio.env(bucketName),
      MONGO_URL: withDatabase(ferret.url, database),
      REDIS_URL: redisUrl(),
      REDIS_PREFIX: prefix,
      SESSION_SECRET: randomBytes(24).toString('hex'),
      // a crashed worker's job runs again after 2 s rather than BullMQ's default 30 s
      JOB_STALLED_SECONDS: '2',
      // every member of these journeys registers from this one address, counted in Redis across replicas
      REGISTER_LIMIT_PER_HOUR: '100',
    };
    urlA = `http://127.0.0.1:${portA}`;
    urlB = `http://127.0.0.1:${portB}`;
    // started together, as `docker compose up` does
    projections = startProjections({ HEALTH_PORT: String(healthP) });
    workers = startWorkers({ HEALTH_PORT: String(healthW) });
    apiA = startApi('api A', portA);
    apiB = startApi('api B', portB);
    await Promise.all([
      waitForStatus(`${urlA}/ready`, 200, apiA),
      waitForStatus(`${urlB}/ready`, 200, apiB),
      waitForStatus(`http://127.0.0.1:${healthP}/ready`, 200, projections),
      workers.waitForLine(/workers ready/),
    ]);
    // read as the services read it: personal fields decrypted with the members' keys (same database)
    log = new PersonalDataEventStore(new PostgresEventStore(db.url), new PostgresKeyStore(db.url), { closeKeys: true });
    bucket = new S3FileStore(minio.settings(bucketName));
  }, 30 * 60_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await log?.close();
    await bucket?.close();
    await stopAllServices();
    if (ferret?.kind === 'mongodb') await dropDatabases(ferret.url, [database, `${database}_replay`]);
    await ferret?.stop();
    await minio?.stop();
    await db?.drop();
    await deleteRedisKeys(prefix);
    if (dataDirs) rmSync(dataDirs, { recursive: true, force: true });
    console.log(`[topology] wall time ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  }, 60_000);

  let alice: Member;
  let bob: Member;
  let aliceOnB: Client;
  let aliceVideo: number;

  it('a session opened on api A is used on api B (sessions in Redis)', async () => {
    alice = await registerAndLogin(urlA);
    aliceOnB = new Client(urlB);
    aliceOnB.cookie = alice.client.cookie;
    const me = await aliceOnB.get('/api/auth/me');
    expect(me.status, me.text).toBe(200);
    expect(JSON.stringify(me.json)).toContain(alice.member.email);
    // and a stranger's cookie is refused on B
    const stranger = new Client(urlB);
    expect((await stranger.get('/api/auth/me')).status).toBe(401);
  });

  it('login failures on api A and api B add up to one budget (limits in Redis): refused in French once it is spent, on both, as one replica alone would', async () => {
    // alice (no new registration: those count against the address's shared hourly budget too)
    const target = alice;
    const email = target.member.email;
    const onA = new Client(urlA);
    const onB = new Client(urlB);
    // the budget of one address on one account is DEFAULT_LOGIN_LIMITS.perPair = 5 failures: spread
    // over the two replicas (3 on A, 2 on B), each answered as a failure; with counters per process
    // each replica would have seen fewer than 5 and let more through
    const failures = [];
    for (let i = 0; i < 5; i++) {
      failures.push(await (i % 2 ? onB : onA).post('/api/auth/login', { email, password: `faux-${i}` }));
    }
    expect(failures.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect(failures[4].json).toEqual({ error: MESSAGES.badCredentials });
    // spent: the next attempt is refused before its password is checked, on either replica, even the right one
    for (const [client, password] of [
      [onB, 'faux-5'],
      [onA, 'faux-6'],
      [onA, target.member.password],
      [onB, target.member.password],
    ] as const) {
      const refused = await client.post('/api/auth/login', { email, password });
      expect(refused.status, refused.text).toBe(429);
      expect(refused.json).toEqual({ error: AUTH_ROUTE_MESSAGES.tooManyAttempts });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // the back-office on B counts the 5 failures seen by both; its unlock on B frees the login on A
    const admin = new Client(urlB);
    expect(
      (await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD })).status,
    ).toBe(200);
    const listed = await admin.get(`/api/admin/users?q=${encodeURIComponent(email)}`);
    expect(listed.status, listed.text).toBe(200);
    expect((listed.json.items as Array<{ email: string; login_failures: number }>)[0]).toMatchObject({
      email,
      login_failures: 5,
    });
    const unlocked = await admin.post('/api/admin/users/unlock-login', { email });
    expect(unlocked.status, unlocked.text).toBe(200);
    const back = await onA.post('/api/auth/login', { email, password: target.member.password });
    expect(back.status, back.text).toBe(200);
  });

  it('a video uploaded on api A is processed by the workers process; its card is in the read models of the projections process', async () => {
    // the registration uploaded one video: the worker probes it and records VideoProcessed
    const profile = await eventually(async () => {
      const r = await aliceOnB.get(`/api/users/profile/${alice.member.pseudo}`);
      const videos = (r.json.videos ?? []) as Array<{ id: number; processing: string; poster_path?: string | null }>;
      return videos.length === 1 && videos[0].processing !== 'en_traitement' ? videos : undefined;
    }, 'the registration video processed');
    aliceVideo = profile[0].id;
    expect(profile[0].processing).toBe('prête');
    const events = await log.readStream(`video-${aliceVideo}`);
    expect(events.map((e) => e.type)).toEqual(['VideoUploaded', 'VideoProcessed']);
    // read straight from MongoDB: the projections process wrote the card
    const read = new MongoReadStore(env.MONGO_URL);
    try {
      const card = await read.collection('videos').findOne({ _id: aliceVideo });
      expect(card).toMatchObject({
        _id: aliceVideo,
        processing: 'prête',
        poster: `/uploads/posters/${aliceVideo}.jpg`,
      });
    } finally {
      await read.close();
    }
  });

  it('a video uploaded through api A is processed by the workers and played through api B with a range request; no process keeps it on its disk', async () => {
    const form = new FormData();
    form.append('title', 'Sur A, vue sur B');
    const original = await demoVideo();
    form.append('video', new Blob([new Uint8Array(original)], { type: 'video/mp4' }), 'ab.mp4');
    const up = await alice.client.post('/api/videos/upload', form);
    expect(up.status, up.text).toBe(201);
    const videoId = (up.json.video as { id: number }).id;
    const card = await eventually(async () => {
      const r = await aliceOnB.get(`/api/videos/${videoId}`);
      return r.status === 200 && (r.json as { processing?: string }).processing === 'prête' ? r.json : undefined;
    }, 'the video processed, seen on api B');
    const filePath = (card as { file_path: string }).file_path;
    const stranger = await registerAndLogin(urlB);
    const part = await stranger.client.get(filePath, { range: 'bytes=1000-4999' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-4999/${original.length}`);
    const bytes = Buffer.from(
      await (await fetch(urlB + filePath, { headers: { range: 'bytes=1000-4999' } })).arrayBuffer(),
    );
    expect(bytes).toEqual(original.subarray(1000, 5000));
    expect((await fetch(`${urlB}/uploads/posters/${videoId}.jpg`)).status).toBe(200);
    // in the bucket, and on no process's disk
    expect((await bucket.stat('videos', filePath.split('/').pop()!))?.size).toBe(original.length);
    const onDisk: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(dir, e.name));
        else if (/\.(mp4|jpg)$/.test(e.name)) onDisk.push(path.join(dir, e.name));
      }
    };
    walk(dataDirs);
    expect(onDisk).toEqual([]);
  });

  it("a hidden video's file and poster are refused to another member on both replicas, served to its owner on both", async () => {
    const owner = await registerAndLogin(urlA);
    const other = await registerAndLogin(urlB);
    const admin = new Client(urlA);
    expect(
      (await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD })).status,
    ).toBe(200);
    const [video] = await eventually(async () => {
      const r = await owner.client.get(`/api/users/profile/${owner.member.pseudo}`);
      const videos = (r.json.videos ?? []) as Array<{ id: number; file_path: string; processing: string }>;
      return videos.length === 1 && videos[0].processing === 'prête' ? videos : undefined;
    }, "the owner's video processed");
    const urls = [video.file_path, `/uploads/posters/${video.id}.jpg`];
    expect((await admin.put(`/api/videos/${video.id}/visibility`, { status: 'masquée' })).status).toBe(200);
    for (const base of [urlA, urlB]) {
      const otherHere = new Client(base);
      otherHere.cookie = other.client.cookie;
      const ownerHere = new Client(base);
      ownerHere.cookie = owner.client.cookie;
      for (const url of urls) {
        // the replica's read models follow the projections process: wait for the change to reach them
        await eventually(async () => (await otherHere.get(url)).status === 404, `${url} refused on ${base}`, 10_000);
        expect((await ownerHere.get(url)).status, `${url} for its owner on ${base}`).toBe(200);
      }
    }
  });

  it('read-your-writes across processes: a GET on api B right after a POST on api A sees the change', async () => {
    bob = await registerAndLogin(urlA);
    const bobOnB = new Client(urlB);
    bobOnB.cookie = bob.client.cookie;
    for (let i = 0; i < 5; i++) {
      const posted = await bob.client.post(`/api/videos/${aliceVideo}/comment`, { content: `commentaire ${i}` });
      expect(posted.status, posted.text).toBe(201);
      const list = await bobOnB.get(`/api/videos/${aliceVideo}/comments`);
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.json)).toContain(`commentaire ${i}`);
    }
    const follow = await bob.client.post('/api/users/follows/follow', { followingPseudo: alice.member.pseudo });
    expect(follow.status, follow.text).toBeLessThan(300);
    const feed = await bobOnB.get(`/api/videos/friends-feed/${bob.member.email}`);
    expect(JSON.stringify(feed.json)).toContain(`"id":${aliceVideo}`);
  });

  it('a Socket.IO client on api B receives the notification and the live counter caused by a command sent to api A', async () => {
    const socket = connectSocket(urlB, {
      transports: ['websocket'],
      forceNew: true,
      extraHeaders: { cookie: alice.client.cookie },
      reconnection: false,
    });
    sockets.push(socket);
    const notifications: unknown[] = [];
    const counters: Array<{ videoId: number; likes_count: number }> = [];
    socket.on('notification:new', (p: unknown) => notifications.push(p));
    socket.on('video:counters', (p: { videoId: number; likes_count: number }) => counters.push(p));
    await new Promise<void>((resolve, reject) => {
      socket.once('sync', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.emitWithAck('video:watch', aliceVideo)).toBe(true);
    const like = await bob.client.post(`/api/videos/${aliceVideo}/like`);
    expect(like.status, like.text).toBe(200);
    await eventually(
      async () => notifications.length > 0 && counters.some((c) => c.likes_count === 1),
      'pushes on api B',
      10_000,
    );
    expect(JSON.stringify(notifications)).toContain(bob.member.pseudo);
    expect(counters.find((c) => c.likes_count === 1)).toMatchObject({ videoId: aliceVideo, likes_count: 1 });
  });

  it('the back-office rebuild on an API replica answers 409 in French: the rebuild is `npm run replay`', async () => {
    const admin = new Client(urlB);
    expect(
      (await admin.post('/api/auth/login', { email: DEMO_ADMIN_EMAIL, password: DEMO_ADMIN_PASSWORD })).status,
    ).toBe(200);
    const state = await admin.get('/api/admin/projections/rebuild');
    expect(state.status).toBe(409);
    expect(state.json.error).toContain('npm run replay');
    const start = await admin.post('/api/admin/projections/rebuild');
    expect(start.status).toBe(409);
    expect(start.json.error).toContain('npm run replay');
  });

  it.skipIf(browserSkip !== undefined)(
    'the back-office tools screen served by an API replica says in French that the rebuild is `npm run replay`',
    async () => {
      const browser = await launchBrowser();
      try {
        const page = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
        await logInAs(page, urlB, ADMIN);
        await page.goto(`${urlB}/admin/tools`);
        await page.getByText('Reconstruction impossible depuis ce serveur.').waitFor();
        expect(await page.getByText(MODERATION_MESSAGES.rebuildNotHere).isVisible()).toBe(true);
        expect(await page.getByRole('button', { name: 'Reconstruire les projections' }).isDisabled()).toBe(true);
      } finally {
        await browser.close();
      }
    },
  );

  it('kill -9 of the worker during a video job: the job runs again, one VideoProcessed; gifts wait for the workers service (the API replicas do not credit them), then are credited once; an upload never queued is queued by the restarted workers', async () => {
    // the upload's job starts on the worker; kill it right then
    const form = new FormData();
    form.append('title', 'Pendant le crash');
    form.append('video', new Blob([new Uint8Array(await demoVideo())], { type: 'video/mp4' }), 'crash.mp4');
    const up = await alice.client.post('/api/videos/upload', form);
    expect(up.status, up.text).toBe(201);
    const videoId = (up.json.video as { id: number }).id;
    const started = new RegExp(`"jobId":"video-${videoId}".*"job started"`);
    // the line is seen as soon as the worker writes it (no polling), so the kill lands inside the job
    await workers.waitForLine(started, 15_000);
    await workers.kill9();
    const afterKill = (await log.readStream(`video-${videoId}`)).map((e) => e.type);
    // the kill landed inside the job: nothing recorded yet
    expect(afterKill).toEqual(['VideoUploaded']);

    // a gift sent while no workers service runs stays in transit: no API replica credits it
    expect((await bob.client.post('/api/coins/add', { email: bob.member.email, amount: 50 })).status).toBe(200);
    const sent = await bob.client.post('/api/gifts/send', {
      sender_email: bob.member.email,
      receiver_email: alice.member.email,
      gift_id: 1,
    });
    expect(sent.status, sent.text).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const giftsSent = (await allEvents()).filter((e) => e.type === 'GiftSent');
    expect(giftsSent).toHaveLength(1);
    const giftId = (giftsSent[0].data as { giftId: number }).giftId;
    expect((await allEvents()).filter((e) => e.type === 'GiftReceived')).toHaveLength(0);

    // an upload recorded by an API replica that died before queueing its job: only the log has it
    const ownerId = ((await log.readStream(`video-${aliceVideo}`))[0].data as { ownerId: string }).ownerId;
    const orphanFile = `${randomUUID()}.mp4`;
    const orphanBytes = await demoVideo();
    await bucket.put('videos', orphanFile, Readable.from([orphanBytes]));
    const orphan = await uploadVideo(
      log,
      // the dead replica's own allocator on the shared log
      new IdBlocks(log),
      ownerId,
      {
        title: 'Jamais mise en file',
        description: '',
        filePath: `/uploads/videos/${orphanFile}`,
        mimeType: 'video/mp4',
        sizeBytes: orphanBytes.length,
      },
      systemContext(),
    );

    workers = startWorkers();
    await eventually(
      async () => {
        const types = (await log.readStream(`video-${videoId}`)).map((e) => e.type);
        return types.length > 1 ? types : undefined;
      },
      'the job run again',
      30_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\nWORKERS:\n${workers.output().slice(-5000)}`);
    });
    await eventually(
      async () => (await allEvents()).some((e) => e.type === 'GiftReceived'),
      'the gift credited by the restarted workers service',
    );
    await new Promise((r) => setTimeout(r, 1000));
    const outcomes = (await log.readStream(`video-${videoId}`)).map((e) => e.type);
    expect(outcomes).toEqual(['VideoUploaded', 'VideoProcessed']);
    // the restarted workers service queued the orphan upload again from the log
    await eventually(
      async () => (await log.readStream(`video-${orphan.videoId}`)).length > 1,
      'the orphan upload processed',
    );
    expect((await log.readStream(`video-${orphan.videoId}`)).map((e) => e.type)).toEqual([
      'VideoUploaded',
      'VideoProcessed',
    ]);
    const credits = (await allEvents()).filter((e) => e.type === 'GiftReceived');
    expect(credits.map((e) => (e.data as { giftId: number }).giftId)).toEqual([giftId]);
    // and the read models (on api B) show it once
    const giftRows = new RegExp(`"id":${giftId}\\b`, 'g');
    const received = await eventually(async () => {
      const r = await aliceOnB.get(`/api/gifts/received/${alice.member.email}`);
      return r.status === 200 && (r.text.match(giftRows)?.length ?? 0) > 0 ? r : undefined;
    }, 'the gift in the receiver read model');
    expect(received.text.match(giftRows)).toHaveLength(1);
  });

  it('kill -9 of the projections process in a burst: /ready says catching-up, nothing double-counted or missed, read models equal a fresh `npm run replay`', async () => {
    const members = [alice, bob, ...(await Promise.all([registerAndLogin(urlB), registerAndLogin(urlA)]))];
    await waitForStatus(`${urlA}/ready`, 200);
    const videos = await Promise.all(
      members.map(async (m) => {
        const p = await m.client.get(`/api/users/profile/${m.member.pseudo}`);
        return ((p.json.videos ?? []) as Array<{ id: number }>)[0].id;
      }),
    );
    const clientsOn = (m: Member, i: number) => {
      const c = new Client(i % 2 === 0 ? urlA : urlB);
      c.cookie = m.client.cookie;
      return c;
    };
    const ROUNDS = 8;
    let killed = false;
    const burst = Promise.all(
      members.map(async (m, i) => {
        const target = videos[(i + 1) % members.length];
        for (let r = 0; r < ROUNDS; r++) {
          const c = clientsOn(m, r + i);
          const answers = await Promise.all([
            c.post(`/api/videos/${target}/comment`, { content: `rafale ${i}.${r}` }),
            r % 2 === 0 ? c.post(`/api/videos/${target}/like`) : c.delete(`/api/videos/${target}/like`),
            c.post('/api/videos/views', { videoId: videos[(i + r) % members.length] }),
          ]);
          for (const a of answers) expect(a.status, a.text).toBeLessThan(300);
          if (i === 0 && r === 2) {
            await projections.kill9();
            killed = true;
          }
        }
      }),
    );
    // the GETs of a command's own session wait for the read models (2 s at most, then answer)
    await burst;
    expect(killed).toBe(true);
    // the log moved on without the projections: neither replica says it is caught up
    await waitForStatus(`${urlA}/ready`, 503);
    await waitForStatus(`${urlB}/ready`, 503);
    projections = startProjections();
    await waitForStatus(`${urlA}/ready`, 200, projections);
    await waitForStatus(`${urlB}/ready`, 200, projections);

    // counters: each video got ROUNDS comments from one member, liked on even rounds, unliked on odd
    for (let i = 0; i < members.length; i++) {
      const target = videos[(i + 1) % members.length];
      const card = await members[i].client.get(`/api/videos/${target}`);
      expect(card.status).toBe(200);
      expect(card.json).toMatchObject({ likes_count: ROUNDS % 2 === 0 ? 0 : 1 });
      const comments = await members[i].client.get(`/api/videos/${target}/comments`);
      const texts = JSON.stringify(comments.json).match(new RegExp(`rafale ${i}\\.\\d+`, 'g')) ?? [];
      expect(new Set(texts).size).toBe(ROUNDS);
      expect(texts).toHaveLength(ROUNDS);
    }

    // the live read models equal a rebuild from the log into an empty database, document by document
    const replayUrl = withDatabase(ferret.url, `${database}_replay`);
    const replay = spawnSync(process.execPath, ['--import', 'tsx', 'projections/src/cli/replay.ts'], {
      cwd: ROOT,
      env: serviceEnv({ ...env, DATA_DIR: ownDataDir('replay'), MONGO_URL: replayUrl }),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(replay.status, `${replay.stdout}\n${replay.stderr}`).toBe(0);
    expect(replay.stdout).toMatch(/Terminé : \d+ événements/);
    const live = new MongoReadStore(env.MONGO_URL);
    // the replay builds beside MONGO_URL's database, into its next generation (`<base>_g2`)
    const rebuilt = new MongoReadStore(withDatabase(ferret.url, `${database}_replay_g2`));
    try {
      const [a, b] = [await dumpReadModels(live), await dumpReadModels(rebuilt)];
      expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
      for (const name of Object.keys(b)) expect(a[name], name).toEqual(b[name]);
    } finally {
      await live.close();
      await rebuilt.close();
    }
  });

  it('an account deleted while the projections process is down keeps its key until the read models forget it (issue 31)', async () => {
    const gone = await registerAndLogin(urlA);
    const registered = (await allEvents()).find(
      (e) => e.type === 'UserRegistered' && (e.data as { pseudo: string }).pseudo === gone.member.pseudo,
    );
    const userId = (registered!.data as { userId: string }).userId;
    const keys = new PostgresKeyStore(db.url);
    const read = new MongoReadStore(env.MONGO_URL);
    const erasedInLog = async () => (await log.readStream(`user-${userId}`)).some((e) => e.type === 'MemberErased');
    const inReadModels = async () => (await read.collection('users').find({ pseudo: gone.member.pseudo })).length;
    try {
      expect(await keys.find(userId)).toBeInstanceOf(Buffer);
      // the member projected before the projections process goes (registering does not wait for it)
      await eventually(async () => (await inReadModels()) === 1, 'the member in the read models');
      await projections.kill9();
      const deleted = await gone.client.request('DELETE', '/api/users/me', { password: gone.member.password });
      expect(deleted.status, deleted.text).toBeLessThan(300);
      // the workers close the wallet, then wait for the read models: the key outlives the copies
      await new Promise((r) => setTimeout(r, 4000));
      expect(await inReadModels()).toBe(1);
      expect(await keys.find(userId)).toBeInstanceOf(Buffer);
      expect(await erasedInLog()).toBe(false);

      projections = startProjections();
      await waitForStatus(`${urlA}/ready`, 200, projections);
      await eventually(erasedInLog, 'the erasure recorded once the read models caught up', 60_000);
      expect(await keys.find(userId)).toBe('destroyed');
      expect(await read.collection('users').find({ pseudo: gone.member.pseudo })).toEqual([]);
    } finally {
      await keys.close();
      await read.close();
    }
  });

  it('kill -9 of an API replica during a burst of appends: no acknowledged event lost, none stored twice', async () => {
    const members = await Promise.all([registerAndLogin(urlA), registerAndLogin(urlB), registerAndLogin(urlA)]);
    const answers: Array<{ content: string; status: number | 'no answer' }> = [];
    let stop = false;
    const loops = members.flatMap((m, i) =>
      [urlA, urlB].map(async (base, j) => {
        const c = new Client(base);
        c.cookie = m.client.cookie;
        for (let k = 0; !stop; k++) {
          const content = `rafale-kill ${i}.${j}.${k}`;
          const status = await c
            .post(`/api/videos/${aliceVideo}/comment`, { content })
            .then((r) => r.status)
            .catch(() => 'no answer' as const);
          answers.push({ content, status });
          if (status !== 201) await new Promise((r) => setTimeout(r, 50));
        }
      }),
    );
    await eventually(async () => answers.filter((a) => a.status === 201).length >= 30, 'a burst under way');
    await apiA.kill9();
    await new Promise((r) => setTimeout(r, 1000));
    stop = true;
    await Promise.all(loops);
    apiA = startApi('api A (restarted)', Number(new URL(urlA).port));
    await waitForStatus(`${urlA}/ready`, 200, apiA);

    // every comment in the log, read straight from PostgreSQL
    const stored = new Map<string, number>();
    for (const e of await allEvents()) {
      if (e.type !== 'CommentPosted') continue;
      const content = (e.data as { content: string }).content;
      if (content.startsWith('rafale-kill')) stored.set(content, (stored.get(content) ?? 0) + 1);
    }
    const acknowledged = answers.filter((a) => a.status === 201);
    expect(acknowledged.length).toBeGreaterThan(30);
    for (const a of acknowledged) expect(stored.get(a.content), a.content).toBe(1);
    // an append cut by the kill is there once or not at all; none twice
    for (const [content, n] of stored) expect(n, content).toBe(1);
    expect(answers.some((a) => a.status === 'no answer')).toBe(true);
    // what B answered never failed (a member's comments past 20 a minute are refused with a 429: a
    // limit, not a failure)
    expect(answers.filter((a) => a.content.includes('.1.') && a.status !== 201 && a.status !== 429)).toEqual([]);
  });

  it('Redis away for a few seconds: requests needing it answer a French 503, the API recovers by itself', async () => {
    const target = new URL(redisUrl());
    const proxy = new TcpProxy(await freePort(), { host: target.hostname, port: Number(target.port || 6379) });
    await proxy.open();
    const portC = await freePort();
    const apiC = startApi('api C (through the proxy)', portC, { REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
    const urlC = `http://127.0.0.1:${portC}`;
    try {
      await waitForStatus(`${urlC}/ready`, 200, apiC);
      const onC = new Client(urlC);
      onC.cookie = alice.client.cookie;
      expect((await onC.get('/api/auth/me')).status).toBe(200);

      await proxy.close();
      const down = await eventually(
        async () => {
          const r = await onC.get('/api/auth/me');
          return r.status === 503 ? r : undefined;
        },
        'a 503 while Redis is away',
        10_000,
      );
      expect(down.json).toEqual({ error: 'Service momentanément indisponible, réessaie dans quelques instants.' });
      // what does not need Redis keeps answering, and the process stays up
      expect((await fetch(`${urlC}/health`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 2000));
      expect(apiC.alive()).toBe(true);

      await proxy.open();
      await eventually(
        async () => (await onC.get('/api/auth/me')).status === 200,
        'recovery once Redis is back',
        15_000,
      );
      const posted = await onC.post(`/api/videos/${aliceVideo}/comment`, { content: 'de retour' });
      expect(posted.status, posted.text).toBe(201);
    } finally {
      await apiC.stop();
      await proxy.close();
    }
  });
});
