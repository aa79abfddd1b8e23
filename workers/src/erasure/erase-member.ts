import {
  DEFAULT_PROFILE_PICTURE,
  ERASED_FILE,
  userDecider,
  userStream,
  type RecordedEvent,
  type VideoUploaded,
} from '@evo/domain';
import {
  childLogger,
  handleCommand,
  loadState,
  type CommandContext,
  type EventStore,
  type FileStore,
  type JobHandler,
  type KeyStore,
} from '@evo/infra';
import type { ProjectionProgress } from '@evo/projections';
import { eraseVideoFiles, type WalletRepository } from '@evo/command-api';
import { dataExportFiles } from '../data-export/build-archive';

const log = childLogger('erasure');

/** The key store's part the erasure uses: a member's key destroyed for good, idempotent. */
export type MemberKeys = Pick<KeyStore, 'destroy'>;

/** Where the read models are: the erasure waits until they have forgotten the member. */
export type ReadModelProgress = Pick<ProjectionProgress, 'waitFor'>;

export interface ErasureDeps {
  events: EventStore;
  files: FileStore;
  wallets: WalletRepository;
  /** the read models' progress; undefined where this process cannot see them (then not waited for) */
  progress?: ReadModelProgress;
  keys: MemberKeys;
  /** test hook: called after each step (a crash test kills the process there) */
  afterStep?: (step: ErasureStep, userId: string) => Promise<void>;
}

export type ErasureStep = 'wallet' | 'read-models' | 'files' | 'key' | 'recorded';

/** A pause after each step, logged with the step's name (ERASURE_STEP_PAUSE_MS: the crash test's window). */
export const pauseAfterSteps =
  (ms: number): ErasureDeps['afterStep'] =>
  async (step, userId) => {
    if (ms <= 0) return;
    log.warn({ userId, step }, `effacement : étape ${step} faite`);
    await new Promise((r) => setTimeout(r, ms));
  };

const READ_MODELS_WAIT_MS = 60_000;

/**
 * The erasure of a deleted account (issue 31), once per topology, each step idempotent so that a
 * retry or a start after `kill -9` anywhere finishes it:
 * 1. the wallet closes (forfeits, or pays out, what is left: the ledger's rule, `CloseWallet`);
 * 2. the read models have applied `AccountDeleted` (they forget the member);
 * 3. the member's files go: pictures, videos and posters (named by their events, read before 4), and
 *    their data archives;
 * 4. the member's key is destroyed: their events' personal fields become unreadable for good;
 * 5. `MemberErased` (the read models forget what raced in since `AccountDeleted`).
 */
export async function eraseMember(deps: ErasureDeps, userId: string): Promise<'erased' | 'nothing'> {
  const stream = await deps.events.readStream(userStream(userId));
  const deleted = stream.find((e) => e.type === 'AccountDeleted');
  if (!deleted || stream.some((e) => e.type === 'MemberErased')) return 'nothing';
  const ctx = (): CommandContext => ({
    userId,
    correlationId: deleted.metadata.correlationId,
    causationId: deleted.id,
    now: new Date(),
  });
  const step = async (name: ErasureStep) => deps.afterStep?.(name, userId);

  await deps.wallets.execute({ type: 'CloseWallet', userId }, ctx());
  await step('wallet');

  if (deps.progress && !(await deps.progress.waitFor(deleted.position, READ_MODELS_WAIT_MS)))
    throw new Error(`read models behind AccountDeleted of ${userId}: retried`);
  await step('read-models');

  const files = await memberFiles(deps.events, userId, stream);
  for (const picture of files.pictures) await deps.files.remove('profile_pics', picture);
  for (const v of files.videos) await eraseVideoFiles(deps.files, v.videoId, v.filePath);
  // their "Mes données" archives: a copy of all of the above
  for (const archive of await dataExportFiles(deps.events, userId)) await deps.files.remove('exports', archive);
  await step('files');

  await deps.keys.destroy(userId);
  await step('key');

  await handleCommand(
    deps.events,
    userStream(userId),
    userDecider,
    { type: 'RecordErasure', userId, files: files.count },
    ctx(),
  );
  await step('recorded');
  log.info({ userId, files: files.count }, 'compte effacé');
  return 'erased';
}

/** The files a member's events name: their pictures (never the default one) and their videos with posters. */
async function memberFiles(events: EventStore, userId: string, stream: RecordedEvent[]) {
  const pictures = new Set<string>();
  for (const e of stream) {
    const picture = (e.data as { profilePicture?: unknown }).profilePicture;
    if (typeof picture === 'string' && picture && picture !== DEFAULT_PROFILE_PICTURE) pictures.add(picture);
  }
  // a member's videos are on streams of their own: found in the log (a deletion is rare)
  const videos: Array<{ videoId: number; filePath: string }> = [];
  for await (const batch of events.readAll())
    for (const e of batch)
      if (e.type === 'VideoUploaded') {
        const d = e.data as VideoUploaded['data'];
        // once the key is destroyed (a start after a crash past step 4) the path reads as erased:
        // its file went at step 3; the poster is named by the video id
        if (d.ownerId === userId)
          videos.push({ videoId: d.videoId, filePath: d.filePath === ERASED_FILE ? '' : d.filePath });
      }
  return { pictures, videos, count: pictures.size + videos.length * 2 };
}

/** The job handler: a job for a member not deleted, or already erased, does nothing. */
export const erasureHandler =
  (deps: ErasureDeps): JobHandler<'account.erase'> =>
  async ({ userId }) => {
    await eraseMember(deps, userId);
  };

/** Whether a member's erasure is still to do (deleted, not erased), from their stream. */
export async function erasurePending(events: EventStore, userId: string): Promise<boolean> {
  const { state } = await loadState(events, userStream(userId), userDecider);
  return state.status === 'deleted' && !state.erased;
}
