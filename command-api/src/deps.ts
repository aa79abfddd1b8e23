import type {
  Config,
  EventStore,
  IdAllocator,
  JobQueue,
  KeyStore,
  Mailer,
  PushBus,
  RateLimitStore,
  ReadStore,
} from '@evo/infra';
import type { ProjectionProgress, ReadSide } from '@evo/projections';
import type { Sessions } from './http/session';
import type { UploadStore } from './uploads/upload-store';
import type { LedgerRepositories } from './coins/wallets';
import type { PasswordHasher } from './identity/commands';

/** Everything a router needs, built once by the composition root. */
export interface AppDeps {
  config: Config;
  events: EventStore;
  /** the members' keys (crypto-shredding): an account deletion destroys the member's */
  keys: KeyStore;
  /** the numeric ids of what commands create (videos, comments, messages, reports, coin transactions), by blocks */
  ids: IdAllocator;
  /** the ledger's command-side caches (wallets, catalogue, members), one set per process */
  ledger: LedgerRepositories;
  read: ReadStore;
  jobs: JobQueue;
  push: PushBus;
  sessions: Sessions;
  /** argon2id at the cost PASSWORD_HASHING names */
  passwords: PasswordHasher;
  /** every rate limit's counters: this process's, or Redis (shared by every API replica) */
  limits: RateLimitStore;
  uploads: UploadStore;
  /** password reset links: a mail server (SMTP_URL) or the server log */
  mailer: Mailer;
  progress: ProjectionProgress;
  /** the in-process read side (embedded role only): rebuilds started by administrators go through it */
  projections?: ReadSide;
  /** whose ffmpeg reads the uploads ('system' or 'bundled'), where this process runs the video jobs (embedded role) */
  mediaTools?: () => Promise<string>;
}
