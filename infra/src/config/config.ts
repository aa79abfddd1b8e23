import { z } from 'zod';
import { isIP } from 'node:net';
import path from 'node:path';

/** Demo administrator of the embedded default; documented in README.md. */
export const DEMO_ADMIN_EMAIL = 'admin@evo.local';
export const DEMO_ADMIN_PASSWORD = 'evo-admin-2026';
/** The demo members' password (lea, hugo, ines), documented in README.md. */
export const DEMO_MEMBER_PASSWORD = 'evo-demo-2026';
/** Passwords anyone can read in README.md: no account reachable from the network may keep one. */
export const PUBLISHED_PASSWORDS: readonly string[] = [DEMO_ADMIN_PASSWORD, DEMO_MEMBER_PASSWORD];

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => protocols.some((p) => v.startsWith(p)), { message: `doit commencer par ${protocols.join(' ou ')}` });

/** 127.0.0.0/8, ::1 and `localhost`: addresses only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(h);
}

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** the interface HTTP listens on: this machine only by default; 0.0.0.0 for every interface */
  HOST: z
    .string()
    .trim()
    .refine((v) => isIP(v) !== 0 || /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/i.test(v), {
      message: 'doit être une adresse IP (127.0.0.1, 0.0.0.0, ::) ou un nom de machine',
    })
    .default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      // @eventstore/db-client 6.2.1 throws in its constructor on the successor's schemes
      .refine((v) => !/^(kurrentdb|kurrent|kdb)(\+discover)?:\/\//i.test(v), {
        message:
          'kurrentdb:// est le schéma du client @kurrent/kurrentdb-client ; EVO utilise @eventstore/db-client 6.2.1 : écrivez la même adresse en esdb://… (ou esdb+discover://…)',
      })
      .pipe(url(['esdb://', 'esdb+discover://', 'postgres://', 'postgresql://']))
      .optional(),
  ),
  MONGO_URL: z.preprocess(emptyToUndefined, url(['mongodb://', 'mongodb+srv://']).optional()),
  /** S3-compatible object storage for uploaded files (all four set), instead of DATA_DIR/uploads */
  S3_ENDPOINT: z.preprocess(emptyToUndefined, url(['http://', 'https://']).optional()),
  S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
        message: 'doit être un nom de bucket S3 (3 à 63 caractères parmi a-z 0-9 . -)',
      })
      .optional(),
  ),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().trim().min(1).optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().trim().min(1).default('us-east-1')),
  /**
   * video files and posters no event names (a crash between storing an upload and recording it)
   * are removed at start once older than this: younger ones may be uploads in flight
   */
  ORPHAN_FILES_GRACE_MINUTES: z.coerce.number().min(0).max(100_000).default(60),
  /**
   * a pause after each step of an account's erasure, logged (tests only: the crash test kills the
   * process at a chosen step); 0 in production
   */
  ERASURE_STEP_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /**
   * the cost of members' password hashes: argon2id's recommended one, or its least for the test
   * suites ('minimal': refused where other machines reach the server)
   */
  PASSWORD_HASHING: z.preprocess(emptyToUndefined, z.enum(['standard', 'minimal']).default('standard')),
  /** bucket in the path (http://host/bucket/key), as MinIO and most S3-compatible servers want */
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('true')),
  REDIS_URL: z.preprocess(emptyToUndefined, url(['redis://', 'rediss://']).optional()),
  /**
   * first part of every Redis key and channel EVO uses (sessions, BullMQ queue, Socket.IO adapter):
   * deployments (or test runs) sharing one Redis stay apart with different prefixes
   */
  REDIS_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'doit faire 1 à 64 caractères parmi A-Z a-z 0-9 _ . -' })
    .default('evo'),
  /**
   * how long a BullMQ job whose worker died waits before another worker runs it again (the job's
   * lock duration and the stalled-job check interval)
   */
  JOB_STALLED_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  ADMIN_EMAIL: z.string().trim().email().default(DEMO_ADMIN_EMAIL),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  /**
   * the demo accounts' password (demo members, and the demo administrator when ADMIN_EMAIL is
   * another): applied at start to those whose password differs, and given to the demo members
   * seeded; required off loopback while a demo account still has its published password
   */
  DEMO_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(8).optional()),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
  GIFT_FEE_PERCENT: z.coerce.number().min(0).max(100).default(0),
  MAX_VIDEO_MB: z.coerce.number().int().min(1).max(2048).default(200),
  MAX_IMAGE_MB: z.coerce.number().int().min(1).max(50).default(5),
  /**
   * the address members use to reach EVO when it is not this machine's (behind a proxy, a domain
   * name): its host name is served (see ALLOWED_HOSTS)
   */
  PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .url({ message: 'doit être une adresse complète (https://evo.example.fr)' })
      .refine((v) => /^https?:\/\//i.test(v), { message: 'doit commencer par http:// ou https://' })
      .optional(),
  ),
  /**
   * other host names requests may carry (comma-separated): every other Host is refused before any
   * route (DNS rebinding). Loopback names, HOST, PUBLIC_URL's name and, listening on the network,
   * this machine's addresses and name are always served.
   */
  ALLOWED_HOSTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .refine(
        (v) => v.split(',').every((h) => /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?)$/i.test(h.trim())),
        {
          message: 'doit être une liste de noms d’hôte séparés par des virgules (evo.example.fr,192.168.1.20)',
        },
      )
      .optional(),
  ),
  /** number of proxies in front (for req.ip and secure cookies) */
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  /**
   * the per-member limits on comments, messages, uploads, reports and gift sends (a French 429
   * beyond them); false only for load tests and benchmarks
   */
  MEMBER_LIMITS: z.enum(['true', 'false']).default('true'),
  /** video megabytes one member may upload per day */
  UPLOAD_MB_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(2048),
  /** registration attempts a client address may make per hour (each may carry a large video) */
  REGISTER_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /**
   * the mail server that sends password reset links (smtp:// or smtps://, user and password in the
   * address); unset: the links are written to the server log (embedded mode)
   */
  SMTP_URL: z.preprocess(emptyToUndefined, url(['smtp://', 'smtps://']).optional()),
  /** the sender of EVO's emails */
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().trim().min(3).default('EVO <no-reply@evo.local>')),
  /** password reset links a client address may ask for per hour (each email: 3 per hour) */
  PASSWORD_RESET_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** how long a password reset link stays usable */
  PASSWORD_RESET_TTL_MINUTES: z.coerce
    .number()
    .positive()
    .max(7 * 24 * 60)
    .default(60),
  /** the site is reached over HTTPS only: HSTS and upgrade-insecure-requests on every answer */
  HTTPS_ONLY: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** seed demo members, videos and gifts on an empty log */
  DEMO_DATA: z.enum(['true', 'false']).default('true'),
  /** the vault's "add coins" form (coins without payment); docker-compose.yml turns it off */
  ALLOW_FREE_COINS: z.enum(['true', 'false']).default('true'),
  /**
   * the embedded process projects its SQLite read models in a worker thread of its own, off the
   * requests' event loop; false: in the requests' thread
   */
  PROJECTIONS_THREAD: z.enum(['true', 'false']).default('true'),
});

/** Where files live in object storage (S3_*). */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  forcePathStyle: boolean;
}

export type Config = Omit<
  z.infer<typeof ConfigSchema>,
  | 'SESSION_SECRET'
  | 'DEMO_DATA'
  | 'ALLOW_FREE_COINS'
  | 'ADMIN_PASSWORD'
  | 'HTTPS_ONLY'
  | 'S3_FORCE_PATH_STYLE'
  | 'MEMBER_LIMITS'
  | 'PROJECTIONS_THREAD'
> & {
  PROJECTIONS_THREAD: boolean;
  S3_FORCE_PATH_STYLE: boolean;
  /** the per-member write limits apply (MEMBER_LIMITS) */
  MEMBER_LIMITS: boolean;
  /** the S3 settings when files live in object storage (all four of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY set) */
  s3: S3Settings | undefined;
  /** unset in the embedded mode: sessionSecret() then keeps one in DATA_DIR */
  SESSION_SECRET: string | undefined;
  ADMIN_PASSWORD: string;
  /**
   * ADMIN_PASSWORD was given (not the demo default): the start then applies it to the
   * administrator when it differs from their current one
   */
  adminPasswordGiven: boolean;
  /** HOST is not a loopback address: other machines reach EVO */
  openToNetwork: boolean;
  /** host names served besides loopback, HOST and this machine's (ALLOWED_HOSTS and PUBLIC_URL's), lower-cased */
  allowedHosts: string[];
  HTTPS_ONLY: boolean;
  DEMO_DATA: boolean;
  ALLOW_FREE_COINS: boolean;
  /** true when nothing distributed is configured: one process, SQLite files */
  embedded: boolean;
  uploadsDir: string;
  eventsFile: string;
  /** the members' keys (SQLite) when the log is not on PostgreSQL nor EventStoreDB with MONGO_URL */
  keysFile: string;
  /** embedded sessions (SQLite) */
  sessionsFile: string;
  /** the embedded session cookie secret, made at the first start when SESSION_SECRET is unset */
  sessionSecretFile: string;
};

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Configuration invalide : ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

/** Validate the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue.path[0] ?? '?'), `(${issue.message})`);
  }
  const c = parsed.data;
  const embedded = !c.EVENTSTORE_URL && !c.MONGO_URL && !c.REDIS_URL;
  const s3Variables = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const s3Given = s3Variables.filter((v) => c[v] !== undefined);
  if (s3Given.length > 0 && s3Given.length < s3Variables.length) {
    const missing = s3Variables.find((v) => c[v] === undefined)!;
    throw new ConfigError(
      missing,
      `est obligatoire quand ${s3Given.join(', ')} ${s3Given.length > 1 ? 'sont définis' : 'est défini'} (fichiers dans un stockage S3)`,
    );
  }
  const s3 =
    s3Given.length === s3Variables.length
      ? {
          endpoint: c.S3_ENDPOINT!,
          bucket: c.S3_BUCKET!,
          accessKeyId: c.S3_ACCESS_KEY_ID!,
          secretAccessKey: c.S3_SECRET_ACCESS_KEY!,
          region: c.S3_REGION,
          forcePathStyle: c.S3_FORCE_PATH_STYLE === 'true',
        }
      : undefined;
  if (!embedded && !c.SESSION_SECRET) {
    throw new ConfigError('SESSION_SECRET', 'est obligatoire hors du mode embarqué (au moins 16 caractères)');
  }
  // the demo passwords are in README.md: only this machine may reach an account that has one
  const openToNetwork = !isLoopbackHost(c.HOST);
  if (!c.ADMIN_PASSWORD && openToNetwork) {
    throw new ConfigError(
      'ADMIN_PASSWORD',
      `est obligatoire quand HOST (${c.HOST}) n'est pas une adresse de bouclage : le mot de passe administrateur de démonstration est public (au moins 8 caractères)`,
    );
  }
  if (openToNetwork && c.PASSWORD_HASHING === 'minimal') {
    throw new ConfigError(
      'PASSWORD_HASHING',
      `ne peut valoir minimal (réservé aux tests) quand HOST (${c.HOST}) n'est pas une adresse de bouclage : retirez-le`,
    );
  }
  if (openToNetwork) {
    for (const variable of ['ADMIN_PASSWORD', 'DEMO_PASSWORD'] as const) {
      if (PUBLISHED_PASSWORDS.includes(c[variable] ?? ''))
        throw new ConfigError(
          variable,
          `ne peut pas être un mot de passe publié dans README.md quand HOST (${c.HOST}) n'est pas une adresse de bouclage : choisissez-en un autre (au moins 8 caractères)`,
        );
    }
  }
  const dataDir = path.resolve(c.DATA_DIR);
  return {
    ...c,
    DATA_DIR: dataDir,
    SESSION_SECRET: c.SESSION_SECRET,
    ADMIN_PASSWORD: c.ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD,
    adminPasswordGiven: c.ADMIN_PASSWORD !== undefined,
    openToNetwork,
    allowedHosts: [
      ...(c.ALLOWED_HOSTS ?? '')
        .split(',')
        .map((h) =>
          h
            .trim()
            .toLowerCase()
            .replace(/^\[|\]$/g, ''),
        )
        .filter(Boolean),
      ...(c.PUBLIC_URL ? [new URL(c.PUBLIC_URL).hostname.toLowerCase().replace(/^\[|\]$/g, '')] : []),
    ],
    HTTPS_ONLY: c.HTTPS_ONLY === 'true',
    DEMO_DATA: c.DEMO_DATA === 'true',
    ALLOW_FREE_COINS: c.ALLOW_FREE_COINS === 'true',
    MEMBER_LIMITS: c.MEMBER_LIMITS === 'true',
    PROJECTIONS_THREAD: c.PROJECTIONS_THREAD === 'true',
    S3_FORCE_PATH_STYLE: c.S3_FORCE_PATH_STYLE === 'true',
    s3,
    embedded,
    uploadsDir: path.join(dataDir, 'uploads'),
    eventsFile: path.join(dataDir, 'events.sqlite'),
    keysFile: path.join(dataDir, 'keys.sqlite'),
    sessionsFile: path.join(dataDir, 'sessions.sqlite'),
    sessionSecretFile: path.join(dataDir, 'session-secret'),
  };
}
