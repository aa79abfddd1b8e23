import { readFileSync, writeFileSync } from 'node:fs';
import { makePrivateDir } from './files/private-files';
import { randomBytes } from 'node:crypto';
import { ConfigError, type Config } from './config/config';
import type { EventStore } from './eventstore/port';
import { SqliteEventStore, type SqliteEventStoreOptions } from './eventstore/sqlite-event-store';
import { EventStoreDbEventStore } from './eventstore/eventstoredb-event-store';
import { LogFormatError, PostgresEventStore } from './eventstore/postgres-event-store';
import { ServiceUnreachableError } from './services';
import type { KeyStore } from './keys/port';
import { CachedKeyStore, KeyDestructions } from './keys/cached-key-store';
import { KeyDestructionRelay } from './keys/key-destruction-relay';
import { SqliteKeyStore } from './keys/sqlite-key-store';
import { PostgresKeyStore } from './keys/postgres-key-store';
import { MongoKeyStore } from './keys/mongo-key-store';
import { PersonalDataEventStore } from './privacy/personal-data-event-store';
import type { JobQueue } from './jobs/port';
import { InProcessJobQueue } from './jobs/in-process-job-queue';
import { BullMqJobQueue } from './jobs/bullmq-job-queue';
import type { SessionStore } from './sessions/port';
import type { RateLimitStore } from './limits/port';
import { MemoryRateLimitStore } from './limits/memory-rate-limit-store';
import { RedisRateLimitStore } from './limits/redis-rate-limit-store';
import { RedisSessionStore } from './sessions/redis-session-store';
import { SqliteSessionStore } from './sessions/sqlite-session-store';
import { DataFileError } from './eventstore/data-file-error';
import type { FileStore } from './files/port';
import { LocalFolderStore } from './files/local-folder-store';
import { S3FileStore } from './files/s3-file-store';
import type { Mailer } from './mail/port';
import { LogMailer } from './mail/log-mailer';
import { SmtpMailer } from './mail/smtp-mailer';

/** Losing the embedded sessions costs a login, nothing else. */
const SESSIONS_ADVICE =
  'Que faire : supprimez ce fichier (et ses fichiers -wal et -shm) puis redémarrez : les membres devront seulement se reconnecter.';

/** Adapters chosen from the configuration: embedded by default, distributed when URLs are set. */
export function createEventStore(config: Config, embedded: EmbeddedLogThreads = {}): EventStore {
  if (config.EVENTSTORE_URL && isPostgresUrl(config.EVENTSTORE_URL))
    return new PostgresEventStore(config.EVENTSTORE_URL);
  if (config.EVENTSTORE_URL) return new EventStoreDbEventStore(config.EVENTSTORE_URL);
  makePrivateDir(config.DATA_DIR);
  return new SqliteEventStore(config.eventsFile, embedded);
}

/**
 * The embedded log read by two threads of one process: the one that appends publishes where its
 * durable part ends, the other follows that mark (see DurableMark). Servers' logs need neither.
 */
export type EmbeddedLogThreads = Pick<SqliteEventStoreOptions, 'publishDurable' | 'followDurable'>;

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

/** What PostgreSQL's refusal at start means, in French (its own words otherwise). */
function postgresRefusal(err: unknown): unknown {
  const code = (err as { code?: unknown })?.code;
  if (code === '3D000') return new Error(`la base de données n'existe pas : créez-la (${(err as Error).message})`);
  if (code === '28P01' || code === '28000') return new Error(`identifiants refusés (${(err as Error).message})`);
  return err;
}

/**
 * Where the members' keys are kept, apart from the log: beside a PostgreSQL log, its own table;
 * beside EventStoreDB (which has no place for them), MongoDB's `evo_keys` database when MONGO_URL
 * is set; otherwise a SQLite file of DATA_DIR (`keys.sqlite`; an EventStoreDB without MONGO_URL is
 * then a one-machine setup).
 */
export function createKeyStore(config: Config): KeyStore {
  if (config.EVENTSTORE_URL && isPostgresUrl(config.EVENTSTORE_URL)) return new PostgresKeyStore(config.EVENTSTORE_URL);
  if (config.EVENTSTORE_URL && config.MONGO_URL) return new MongoKeyStore(config.MONGO_URL);
  makePrivateDir(config.DATA_DIR);
  return new SqliteKeyStore(config.keysFile);
}

/**
 * The key store, reached (its table made), behind a short-lived cache of keys: built once by each
 * composition root, handed to openEventStore and to whatever destroys keys (account deletion).
 */
export async function openKeyStore(
  config: Config,
  /** the process's other threads' destroys, when they have caches of their own (see KeyDestructions) */
  destructions?: KeyDestructions,
  /**
   * with REDIS_URL, other processes' destroys move `destructions` and this one's are told to them
   * (KeyDestructionRelay); a second thread of a process shares its first thread's relay: false
   */
  { relay: relayed = true }: { relay?: boolean } = {},
): Promise<CachedKeyStore> {
  const store = createKeyStore(config);
  try {
    if (store instanceof PostgresKeyStore) await store.ready();
    if (store instanceof MongoKeyStore) await store.ready();
  } catch (err) {
    await store.close().catch(() => undefined);
    if (store instanceof PostgresKeyStore)
      throw new ServiceUnreachableError('EVENTSTORE_URL', 'PostgreSQL', config.EVENTSTORE_URL!, postgresRefusal(err));
    throw new ServiceUnreachableError('MONGO_URL', 'MongoDB', config.MONGO_URL!, err);
  }
  if (!config.REDIS_URL || !relayed) return new CachedKeyStore(store, { destructions });
  // several processes: each one's destroys told to the others' caches
  destructions ??= new KeyDestructions();
  const relay = await KeyDestructionRelay.start(
    config.REDIS_URL,
    `${config.REDIS_PREFIX}:keys:destroyed`,
    destructions,
  ).catch(async (err: unknown) => {
    await store.close().catch(() => undefined);
    throw new ServiceUnreachableError('REDIS_URL', 'Redis', config.REDIS_URL!, err);
  });
  return new CachedKeyStore(store, { destructions, relay });
}

/**
 * The event store, ready to use, as every process uses it: through PersonalDataEventStore, which
 * encrypts the members' personal fields with their keys (`keys`, from openKeyStore). A server's
 * log is reached (and its tables made) before anything else starts, so that a wrong or
 * unreachable EVENTSTORE_URL stops the start with one line naming it. (EventStoreDB's client
 * connects on first use: its adapter is left as it is.)
 */
export async function openEventStore(
  config: Config,
  keys: KeyStore,
  embedded: EmbeddedLogThreads = {},
): Promise<PersonalDataEventStore> {
  return new PersonalDataEventStore(await openLog(config, embedded), keys);
}

async function openLog(config: Config, embedded: EmbeddedLogThreads): Promise<EventStore> {
  const store = createEventStore(config, embedded);
  if (store instanceof PostgresEventStore) {
    try {
      await store.ready();
    } catch (err) {
      await store.close();
      if (err instanceof LogFormatError) throw new ConfigError('EVENTSTORE_URL', `: ${err.message}`);
      const cause = (err as { cause?: unknown }).cause ?? err;
      throw new ServiceUnreachableError('EVENTSTORE_URL', 'PostgreSQL', config.EVENTSTORE_URL!, postgresRefusal(cause));
    }
  }
  return store;
}

/** Redis when configured (every API process counts in one place), else counters in this process. */
export function createRateLimitStore(config: Config): RateLimitStore {
  return config.REDIS_URL ? new RedisRateLimitStore(config.REDIS_URL, config.REDIS_PREFIX) : new MemoryRateLimitStore();
}

export function createJobQueue(config: Config): JobQueue {
  return config.REDIS_URL
    ? new BullMqJobQueue({
        redisUrl: config.REDIS_URL,
        prefix: config.REDIS_PREFIX,
        stalledAfterMs: config.JOB_STALLED_SECONDS * 1000,
      })
    : new InProcessJobQueue();
}

/** A mail server when SMTP_URL is set, else the server log (the embedded mode on one's machine). */
export function createMailer(config: Config): Mailer {
  return config.SMTP_URL ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM) : new LogMailer();
}

/** Redis when configured (shared by the API processes), else a SQLite file in DATA_DIR. */
export function createSessionStore(config: Config): SessionStore {
  if (config.REDIS_URL) return new RedisSessionStore(config.REDIS_URL, `${config.REDIS_PREFIX}:sess:`);
  makePrivateDir(config.DATA_DIR);
  try {
    return new SqliteSessionStore(config.sessionsFile);
  } catch (e) {
    throw new DataFileError(
      config.sessionsFile,
      `Le fichier des sessions est illisible (${(e as Error).message}).`,
      SESSIONS_ADVICE,
    );
  }
}

/**
 * The session cookie secret: SESSION_SECRET, or in the embedded mode one made at the first start
 * and kept in DATA_DIR (readable by its owner only), so that cookies outlive a restart.
 */
export function sessionSecret(config: Config): string {
  if (config.SESSION_SECRET) return config.SESSION_SECRET;
  makePrivateDir(config.DATA_DIR);
  try {
    writeFileSync(config.sessionSecretFile, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    // made by an earlier start: read it below
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const secret = readFileSync(config.sessionSecretFile, 'utf8').trim();
  if (secret.length < 16) {
    throw new DataFileError(
      config.sessionSecretFile,
      'Le secret des cookies de session est vide ou trop court (moins de 16 caractères).',
      'Que faire : supprimez ce fichier (EVO en crée un nouveau ; les membres devront se reconnecter) ou définissez SESSION_SECRET.',
    );
  }
  return secret;
}

/** The Redis channel prefix shared by the API servers' Socket.IO adapters and the projections' emitter. */
export function pushChannelKey(config: Config): string {
  return `${config.REDIS_PREFIX}:socket.io`;
}

/** Uploaded files: S3-compatible storage when the S3_* settings are given, else DATA_DIR/uploads. */
export function createFileStore(config: Config): FileStore {
  return config.s3 ? new S3FileStore(config.s3) : new LocalFolderStore(config.uploadsDir);
}

/** Which S3 setting a refusal of the storage at start points at. */
function s3Setting(err: unknown): 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' {
  const name = String((err as { name?: unknown; Code?: unknown })?.name ?? '');
  if (name === 'InvalidAccessKeyId') return 'S3_ACCESS_KEY_ID';
  if (name === 'SignatureDoesNotMatch') return 'S3_SECRET_ACCESS_KEY';
  if (['AccessDenied', 'Forbidden', 'InvalidBucketName', 'NoSuchBucket', 'BucketAlreadyExists'].includes(name))
    return 'S3_BUCKET';
  return 'S3_ENDPOINT';
}

/**
 * The file store, ready (the bucket reached, or made when missing; the local folders made): a
 * wrong or unreachable S3 setting stops the start with one French line naming it.
 */
export async function openFileStore(config: Config): Promise<FileStore> {
  const store = createFileStore(config);
  if (!(store instanceof S3FileStore)) return store;
  try {
    await store.ready();
  } catch (err) {
    await store.close();
    const setting = s3Setting(err);
    const shown = setting === 'S3_ENDPOINT' ? config.s3!.endpoint : setting === 'S3_BUCKET' ? config.s3!.bucket : '…';
    const cause = err instanceof Error ? err : new Error(String(err));
    const detail = setting === 'S3_ENDPOINT' ? cause : new Error(`refusé par le serveur : ${cause.name}`);
    throw new ServiceUnreachableError(setting, 'le stockage S3', shown, detail);
  }
  return store;
}
