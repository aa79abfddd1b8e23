import { createServer, type Server as HttpServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import {
  attachRedisAdapter,
  checkDistributedServices,
  childLogger,
  DurableMark,
  KeyDestructions,
  openEventStore,
  openKeyStore,
  type EventStore,
  openFileStore,
  type ReadStore,
  FoldingEventStore,
  createJobQueue,
  createRateLimitStore,
  createSessionStore,
  createMailer,
  DataFileError,
  IdBlocks,
  pushChannelKey,
  SocketIoPushBus,
  SqliteEventStore,
  sessionSecret,
  systemContext,
  closeVerifiedLog,
  RunningLogRecorder,
  sourceTreeFingerprint,
  verifyEventLog,
  type Config,
  type VerifiedLogRecord,
  type IdBlocksOptions,
} from '@evo/infra';
import {
  dataExportJobOptions,
  erasureJobOptions,
  eventSchemas,
  useFrenchZodErrors,
  videoJobOptions,
  type LogPosition,
} from '@evo/domain';
import {
  allProjectors,
  deletionsNotErased,
  videosAwaitingProcessing,
  giftsInTransit,
  ProjectionService,
  ProjectionThread,
  ReadStoreProgress,
  type ReadSide,
  VIDEOS,
  type VideoDoc,
  DATA_EXPORTS,
  type DataExportDoc,
  type Projector,
  openReadModelGenerations,
  openReadStore,
} from '@evo/projections';
import {
  announceMediaTools,
  jobHandlers,
  pauseAfterSteps,
  sweepOrphanVideoFiles,
  startExportSweeper,
  type NamedVideoFiles,
} from '@evo/workers';
import {
  type AppDeps,
  createApp,
  createSocketServer,
  ensureAdmin,
  ensureGiftCatalogue,
  GiftCreditProcess,
  passwordHasher,
  ledgerRepositories,
  posterName,
  secureDemoAccounts,
  seedDemoData,
  ServedHosts,
  Sessions,
  UploadStore,
  videoFileName,
  videoFilePath,
  videoIdOfPoster,
} from '@evo/command-api';

import type { ProjectionThreadData } from './projections-thread';
import { projectionThreadModule } from './projection-thread-module';

const log = childLogger('server');

export interface ServerOptions {
  config: Config;
  /** embedded: everything in this process; api: HTTP + Socket.IO only (projections and workers run apart) */
  role?: 'embedded' | 'api';
  webDist?: string;
  /** listen on this port instead of config.PORT (0 = any free port, for tests) */
  port?: number;
  /** how the numeric id allocator reserves (benchmarks: other block sizes); its defaults otherwise */
  idBlocks?: IdBlocksOptions;
  /**
   * the read side's projectors (tests add one that fails on an event), projected in this thread
   * (a worker thread cannot be handed functions); every projector otherwise
   */
  projectors?: readonly Projector[];
  /** the projections' thread's worker, started beforehand (main.ts): ended here if no thread is wanted */
  projectionWorker?: Worker;
}

/** The URL of what `http` listens on, as bound (0.0.0.0 and :: stand for every interface). */
export function listeningUrl(http: HttpServer): string {
  const { address, family, port } = http.address() as AddressInfo;
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}

export interface RunningServer {
  /** where to reach it from this machine */
  url: string;
  /** the address it listens on, as bound (http://0.0.0.0:3000 means every interface) */
  listening: string;
  port: number;
  deps: AppDeps;
  /** the embedded role's read side (in its thread, or in this one); waitFor/rebuild go through it */
  runner?: ReadSide;
  /**
   * credits every sent gift to its receiver (coin ledger): embedded role only; in the distributed
   * stack the workers service runs it, once per topology
   */
  giftCredits?: GiftCreditProcess;
  http: HttpServer;
  close(): Promise<void>;
}

let schemasCode: string | undefined;

/** Where the last clean stop records that the log passed the checks below, and by which code. */
function verifiedLogRecord(config: Config): VerifiedLogRecord {
  // the event schemas live in the domain package: any change to it means checking the whole log again
  schemasCode ??= sourceTreeFingerprint(path.dirname(createRequire(import.meta.url).resolve('@evo/domain')));
  return { file: path.join(config.DATA_DIR, 'events.verified'), code: schemasCode };
}

/**
 * Before anything reads the embedded log: every event readable and valid (a damaged file stops the
 * start with a message for the operator), and an empty log only on a fresh install: an empty log
 * beside the uploads of an earlier one means the log was lost, and starting would re-seed and
 * bury that history. After a clean stop that left the file as it was, only the events since that
 * stop are read (see verifyEventLog). Answers the position checked up to (for the stop).
 */
async function checkEmbeddedLog(
  events: SqliteEventStore,
  reader: EventStore,
  config: Config,
  uploads: UploadStore,
  recorder: RunningLogRecorder,
): Promise<LogPosition | undefined> {
  const started = performance.now();
  // before the check reads anything: a commit by another program from here on is seen
  recorder.begin();
  const v = await verifyEventLog(events, config.eventsFile, eventSchemas, verifiedLogRecord(config), reader);
  log.info(
    {
      events: v.checked,
      last: v.last?.toString(),
      trustedUpTo: v.trustedUpTo?.toString(),
      recordIgnored: v.recordIgnored,
      ms: Math.round(performance.now() - started),
    },
    v.trustedUpTo === undefined
      ? 'event log verified'
      : v.afterCrash
        ? 'event log verified (checked up to trustedUpTo by the run killed, as it recorded; the events on the pages its -wal holds and after it checked)'
        : 'event log verified (unchanged since the last clean stop up to trustedUpTo; the events after it checked)',
  );
  if (v.last !== undefined) return v.last;
  const stored = await uploads.storedFileCount();
  if (stored === 0) return undefined;
  throw new DataFileError(
    config.eventsFile,
    `Le journal d'événements est vide, alors que ${config.uploadsDir} contient ${stored} fichier(s) d'une installation précédente : démarrer créerait une nouvelle installation et l'historique de ces fichiers serait perdu.`,
    'Que faire : arrêtez EVO et restaurez events.sqlite depuis votre dernière sauvegarde. Pour repartir de zéro volontairement, déplacez aussi le dossier uploads (ou choisissez un autre DATA_DIR).',
  );
}

/**
 * Close the embedded log, first checking what this run appended since the recorder's last turn
 * (and the file's pages) so that the next start can skip it all (see closeVerifiedLog). A problem
 * found, or another program that wrote to the file during the run, and no record is kept: the next
 * start checks the whole log and refuses a bad one with the operator's message.
 */
async function closeEmbeddedLog(
  events: SqliteEventStore,
  reader: EventStore,
  config: Config,
  recorder: RunningLogRecorder,
): Promise<void> {
  const started = performance.now();
  const closed = await closeVerifiedLog(
    events,
    config.eventsFile,
    eventSchemas,
    verifiedLogRecord(config),
    recorder,
    reader,
  ).catch((err: unknown) => ({ error: err, recorded: undefined, notRecorded: undefined }));
  if (closed.error)
    log.error(
      { err: closed.error },
      "journal d'événements : vérification à l'arrêt en échec, le prochain démarrage vérifiera tout",
    );
  else if (closed.recorded === undefined)
    log.warn({ why: closed.notRecorded }, "journal d'événements : le prochain démarrage vérifiera tout");
  else
    log.info(
      { position: closed.recorded.toString(), ms: Math.round(performance.now() - started) },
      "journal d'événements vérifié à l'arrêt",
    );
}

/** The embedded sweep of orphan video files, from the read models (caught up by now). */
async function sweepEmbeddedOrphans(read: ReadStore, uploads: UploadStore, graceMs: number): Promise<void> {
  const videos = read.collection<VideoDoc>(VIDEOS);
  // a file is named while its video is in the read model (a poster: named after the video's id)
  const named: NamedVideoFiles = async (folder, names) => {
    if (folder === 'videos') {
      const found = await videos.find(
        { file_path: { $in: names.map(videoFilePath) } },
        { projection: { file_path: 1 } },
      );
      return new Set(found.map((v) => videoFileName(v.file_path)));
    }
    const ids = names.map(videoIdOfPoster).filter((id) => id !== undefined);
    const found = await videos.find({ _id: { $in: ids } }, { projection: { _id: 1 } });
    return new Set(found.map((v) => posterName(v._id)));
  };
  try {
    const removed = await sweepOrphanVideoFiles(uploads.files, named, { graceMs });
    if (removed.length > 0) log.info({ removed }, 'orphan video files removed');
  } catch (err) {
    log.error({ err }, 'orphan video files not swept');
  }
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config } = options;
  const role = options.role ?? 'embedded';
  // zod speaks French from the start: the log's check below quotes an event schema's failure
  useFrenchZodErrors();
  // an API replica starts whole or not at all: its variables set, Redis and MongoDB answering
  if (role === 'api') await checkDistributedServices(config, 'api');
  // uploaded files: S3 when its settings are given (reached now: a wrong one stops the start), else DATA_DIR/uploads
  const uploads = new UploadStore(await openFileStore(config), {
    maxVideoBytes: config.MAX_VIDEO_MB * 1024 * 1024,
    maxImageBytes: config.MAX_IMAGE_MB * 1024 * 1024,
  });
  // the single process sweeps tmp/ whole; API replicas sharing the folder spare uploads in flight
  await uploads.init({ sweepOlderThanMs: role === 'embedded' ? 0 : 15 * 60_000 });
  // the members' keys, apart from the log: every process reads and writes the log through them
  // embedded: the projections follow the log in a thread of their own, with its own connections,
  // unless tests hand their own projectors; the read models are then SQLite files (not MONGO_URL)
  const projectionThread =
    role === 'embedded' && config.PROJECTIONS_THREAD && !config.MONGO_URL && !options.projectors
      ? { durableMark: new DurableMark(), keyDestructions: new KeyDestructions() }
      : undefined;
  if (!projectionThread) void options.projectionWorker?.terminate();
  const keys = await openKeyStore(config, projectionThread?.keyDestructions);
  const events = await openEventStore(config, keys, { publishDurable: projectionThread?.durableMark });
  const embeddedLog = events.inner instanceof SqliteEventStore ? events.inner : undefined;
  // how far the log is checked, recorded as this process writes it: after a kill -9 the next start
  // checks only what the -wal holds and what follows (see RunningLogRecorder)
  const recorder = embeddedLog
    ? new RunningLogRecorder(embeddedLog, config.eventsFile, verifiedLogRecord(config), eventSchemas, {
        reader: events,
        onError: (err) =>
          log.error(
            { err },
            "journal d'événements : position vérifiée non enregistrée (un arrêt brutal ferait tout revérifier depuis la dernière)",
          ),
      })
    : undefined;
  if (embeddedLog && recorder) {
    try {
      await recorder.start(await checkEmbeddedLog(embeddedLog, events, config, uploads, recorder));
    } catch (e) {
      await events.close();
      await keys.close();
      throw e;
    }
  }
  // embedded: read models built here, rebuildable beside the live ones; api: read what the projections service writes
  const projections: ReadSide | undefined = projectionThread
    ? new ProjectionThread({
        entry: projectionThreadModule(),
        data: {
          config,
          durableMark: projectionThread.durableMark.buffer,
          keyDestructions: projectionThread.keyDestructions.buffer,
        } satisfies ProjectionThreadData,
        worker: options.projectionWorker,
      })
    : role === 'embedded'
      ? new ProjectionService({
          events,
          projectors: options.projectors ?? allProjectors,
          generations: await openReadModelGenerations(config),
        })
      : undefined;
  const read = projections?.read ?? (await openReadStore(config));
  // the command side reads its streams through folds kept between commands
  const commandEvents = new FoldingEventStore(events);
  // this process's numeric ids (videos, comments, messages, reports, coin transactions), by blocks:
  // one allocator for every command of the process, seeding included
  const ids = new IdBlocks(events, options.idBlocks);
  // the ledger's command-side caches, shared by the coin and gift commands and the gift credits
  const ledger = ledgerRepositories(events);
  const jobs = createJobQueue(config);
  const sessions = new Sessions(createSessionStore(config), sessionSecret(config));
  const limits = createRateLimitStore(config);
  const mailer = createMailer(config);

  // no account keeps a password README.md publishes where other machines reach it: refused
  // (naming them) before anything is written, or given DEMO_PASSWORD
  const seedsDemo = role === 'embedded' && config.DEMO_DATA;
  const passwords = passwordHasher(config.PASSWORD_HASHING);
  const demoChanged = await secureDemoAccounts(commandEvents, config, {
    seeds: seedsDemo,
    passwords,
    ctx: systemContext,
  });
  if (demoChanged.length > 0)
    log.info({ accounts: demoChanged }, 'DEMO_PASSWORD appliqué aux comptes de démonstration');
  const admin = await ensureAdmin(
    commandEvents,
    { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD, apply: config.adminPasswordGiven },
    passwords,
    systemContext(),
  );
  if (admin.passwordChanged) log.info({ email: config.ADMIN_EMAIL }, "ADMIN_PASSWORD appliqué à l'administrateur");
  await ensureGiftCatalogue(events, systemContext(), ledger.catalogue);
  if (seedsDemo) {
    const created = await seedDemoData(
      commandEvents,
      ids,
      uploads,
      passwords.hash,
      () => systemContext(),
      config.DEMO_PASSWORD,
    );
    if (created > 0) log.info({ created }, 'demo members created');
  }

  // Socket.IO wraps the 'request' listeners present when it attaches: ours must be one of them,
  // bound to the app once the app exists
  const bound: { app?: ReturnType<typeof createApp> } = {};
  const http = createServer((req, res) => {
    if (bound.app) bound.app(req, res);
    else res.writeHead(503).end();
  });
  const hosts = new ServedHosts(config);
  const io = createSocketServer(http, sessions, read, { hosts });
  const closeRedisAdapter = config.REDIS_URL
    ? await attachRedisAdapter(io, config.REDIS_URL, { key: pushChannelKey(config) })
    : undefined;
  // without the Redis adapter this server's rooms are all there is: pushes to empty ones are dropped
  const push = new SocketIoPushBus(io, { onlyThisServer: !closeRedisAdapter });

  const runner = projections;
  if (projections) {
    projections.setPush(push);
    const started = performance.now();
    await projections.start();
    // `npm run replay` beside this server: its read models are switched to once made
    projections.followReplays();
    log.info(
      { ms: Math.round(performance.now() - started), position: projections.currentPosition?.toString() },
      'read models ready',
    );
    await jobs.process(
      jobHandlers({
        events: commandEvents,
        files: uploads.files,
        wallets: ledger.wallets,
        keys,
        progress: projections,
        afterStep: pauseAfterSteps(config.ERASURE_STEP_PAUSE_MS),
      }),
      { concurrency: 1 },
    );
  }
  // this process runs the video jobs (embedded): say whose ffmpeg reads the uploads (not awaited:
  // two `-version` runs)
  const mediaTools = projections ? announceMediaTools(log) : undefined;
  mediaTools?.catch((err) => log.error({ err }, 'ffmpeg introuvable'));

  // coin ledger: gifts sent are credited to their receiver (starts from the gifts in transit the
  // read models hold at their checkpoint, folds the log after it, then follows it). Work to do once
  // per topology, not once per API replica: in the distributed stack the workers service runs it
  // (server/src/workers-main.ts)
  const giftCredits =
    role === 'embedded'
      ? new GiftCreditProcess(events, {
          wallets: ledger.wallets,
          onError: (err) => log.error({ err }, 'gift credit error, retrying'),
          resumeFrom: () => giftsInTransit(read),
        })
      : undefined;
  await giftCredits?.start();

  const deps: AppDeps = {
    config,
    events: commandEvents,
    keys,
    ids,
    ledger,
    read,
    jobs,
    push,
    sessions,
    passwords,
    limits,
    mailer,
    uploads,
    progress: runner ?? new ReadStoreProgress(read, events),
    projections: runner,
    mediaTools: mediaTools && (async () => (await mediaTools).source),
  };
  bound.app = createApp(deps, { webDist: options.webDist, hosts });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? config.PORT, config.HOST, resolve);
  });
  const port = (http.address() as AddressInfo).port;
  if (projections) {
    // uploads acknowledged before a crash and never processed get their job again (after the
    // listen: the server serves by now, so a failure here is logged, not thrown)
    try {
      for (const v of await videosAwaitingProcessing(read))
        await jobs.add('video.process', { videoId: v.id, filePath: v.file_path }, videoJobOptions(v.id));
    } catch (err) {
      log.error({ err }, 'vidéos en attente de traitement non relancées');
    }
    // deleted accounts whose erasure was not recorded (the process died during it) are finished
    try {
      for (const d of await deletionsNotErased(read))
        await jobs.add('account.erase', { userId: d._id }, erasureJobOptions(d._id));
    } catch (err) {
      log.error({ err }, 'effacements de comptes non repris');
    }
    // video files no video names (a crash between storing an upload and recording it), once past
    // the grace period; in the distributed stack the workers service does it, from the log
    void sweepEmbeddedOrphans(read, uploads, config.ORPHAN_FILES_GRACE_MINUTES * 60_000);
    // "Mes données" archives whose in-process job died with the last process are built again
    try {
      for (const x of await read.collection<DataExportDoc>(DATA_EXPORTS).find({ status: 'en_preparation' }))
        await jobs.add('data-export.build', { exportId: x._id, memberId: x.member_id }, dataExportJobOptions(x._id));
    } catch (err) {
      log.error({ err }, 'archives « Mes données » en préparation non relancées');
    }
  }
  // archives past their link's life, once per topology (the workers service in the distributed stack)
  const stopExportSweeper = projections ? startExportSweeper(uploads.files) : undefined;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((r) => io.close(() => r()));
      stopExportSweeper?.();
      await giftCredits?.stop();
      await closeRedisAdapter?.();
      // the jobs in flight end first and the read models take in what they appended (a video's
      // processing, an erasure), so that the next start answers from read models at the log's end
      await jobs.close();
      const last = runner && (await events.lastPosition());
      if (runner && last !== undefined && !(await runner.waitFor(last, 10_000)))
        log.warn({ position: last.toString() }, "modèles de lecture en retard sur le journal à l'arrêt");
      await runner?.stop();
      await push.close();
      await sessions.close();
      await limits.close();
      await mailer.close();
      await read.close();
      if (embeddedLog && recorder) await closeEmbeddedLog(embeddedLog, events, config, recorder);
      else await events.close();
      await keys.close();
    })());
  const listening = listeningUrl(http);
  const everywhere = ['0.0.0.0', '::'].includes((http.address() as AddressInfo).address);
  const url = everywhere ? `http://127.0.0.1:${port}` : listening;
  return { url, listening, port, deps, runner, giftCredits, http, close };
}
