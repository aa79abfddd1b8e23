import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { positionFromString, type LogPosition } from '@evo/domain';
import {
  MemoryReadStore,
  eventIdAt,
  SnapshotFileError,
  openMemorySnapshot,
  writeMemorySnapshot,
  type EventStore,
  type SnapshotWriteStats,
} from '@evo/infra';
import type { Projector } from './projector';
import { CHECKPOINTS, CHECKPOINT_ID, readCheckpoint } from './checkpoint';

/** Bumped when the snapshot's layout or meaning changes (not for projector changes: see the fingerprint). */
export const SNAPSHOT_FORMAT = 2;

export interface SnapshotMeta {
  format: number;
  /** the projector set the read models were built by (projectorFingerprint) */
  fingerprint: string;
  /** the checkpoint stored with the read models: they hold exactly the events up to it */
  position: LogPosition;
  /** id of the event at `position` in the log the snapshot was taken from */
  eventId: string;
  createdAt: string;
}

/** Where and how often the embedded read models are snapshotted. */
export interface SnapshotPolicy {
  file: string;
  /** snapshot once this many events were applied since the last one (0: never on that ground) */
  everyEvents: number;
  /** snapshot once this many minutes passed since the last one, if events came (0: never on that ground) */
  everyMinutes: number;
  /** projectorFingerprint(projectors) unless given (tests give another to play an older version) */
  fingerprint?: string;
}

// found through the package, not this file's location: the same from the sources and from the server bundle
const projectionsSrc = path.dirname(createRequire(import.meta.url).resolve('@evo/projections'));

/** The product code of the projections package (tests, test helpers and CLIs left out), file by file. */
function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'testing' && e.name !== 'cli') out = out.concat(sourceFiles(full));
    } else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && !/\.contract\.ts$/.test(e.name)) {
      out.push(full);
    }
  }
  return out.sort();
}

let sourceHash: string | undefined;

/**
 * What a snapshot's read models depend on, as one hash: the format, every projector in order (name,
 * `version`, collections, indexes) and the source text of the projections package. Any change to a
 * projector's code (or to a helper it uses in the package) gives another fingerprint, so a snapshot
 * made by another version of the code is ignored and the read models are rebuilt: one full replay
 * after an upgrade that touched the projections, none otherwise. A projector's `version` covers
 * what the source hash cannot see (a change of meaning made elsewhere, e.g. in domain events).
 */
export function projectorFingerprint(projectors: readonly Projector[]): string {
  sourceHash ??= (() => {
    const h = createHash('sha256');
    for (const file of sourceFiles(projectionsSrc)) {
      h.update(path.relative(projectionsSrc, file)).update('\0').update(readFileSync(file)).update('\0');
    }
    return h.digest('hex');
  })();
  const h = createHash('sha256');
  h.update(`format ${SNAPSHOT_FORMAT}\n`);
  for (const p of projectors) {
    h.update(JSON.stringify([p.name, p.version ?? 1, p.collections, p.indexes ?? {}])).update('\n');
  }
  h.update(sourceHash);
  return h.digest('hex').slice(0, 32);
}

export type SnapshotLoad =
  | { loaded: true; position: LogPosition; documents: number; bytes: number; ms: number }
  | { loaded: false; reason: 'missing' | 'damaged' | 'other-version' | 'ahead-of-log' | 'other-log'; detail: string };

/** Why a snapshot whose file is sound cannot be used with this code and this log (undefined: it can). */
async function whyNotUsable(
  meta: SnapshotMeta | undefined,
  events: EventStore,
  fingerprint: string,
): Promise<Extract<SnapshotLoad, { loaded: false }> | undefined> {
  if (meta?.format !== SNAPSHOT_FORMAT || meta.fingerprint !== fingerprint) {
    return {
      loaded: false,
      reason: 'other-version',
      detail: `instantané d'une autre version des projections (${String(meta?.fingerprint)} ≠ ${fingerprint})`,
    };
  }
  if (typeof meta.position !== 'bigint') {
    return { loaded: false, reason: 'damaged', detail: 'l’instantané ne dit pas jusqu’où il va dans le journal' };
  }
  const last = (await events.lastPosition()) ?? 0n;
  if (meta.position > last) {
    return {
      loaded: false,
      reason: 'ahead-of-log',
      detail: `instantané à la position ${meta.position}, au-delà de la fin du journal (${last}) : le journal a été remplacé ou restauré plus ancien`,
    };
  }
  const id = await eventIdAt(events, meta.position);
  if (id !== meta.eventId) {
    return {
      loaded: false,
      reason: 'other-log',
      detail: `l'événement ${meta.position} du journal n'est pas celui de l'instantané : le journal a été remplacé`,
    };
  }
  return undefined;
}

/**
 * Load the snapshot at `file` into `store` (which must be empty) if it fits this code and this log:
 * sound checksum, same fingerprint, its checkpoint's event in the log (not beyond its end, and the
 * same event: a replaced log with as many events is told apart by the event's id) and the same
 * checkpoint in its read models. The documents are left encoded (MemoryReadStore.loadEncoded): each
 * collection is made when first used, the rest by `store.finishLoading()`. Otherwise `store` is
 * left empty and the answer says why.
 */
export async function loadSnapshot(
  file: string,
  store: MemoryReadStore,
  events: EventStore,
  fingerprint: string,
): Promise<SnapshotLoad> {
  const started = performance.now();
  let read: Awaited<ReturnType<typeof openMemorySnapshot<SnapshotMeta>>>;
  try {
    read = await openMemorySnapshot<SnapshotMeta>(file);
  } catch (e) {
    if (e instanceof SnapshotFileError)
      return { loaded: false, reason: e.reason === 'other-format' ? 'other-version' : e.reason, detail: e.message };
    return { loaded: false, reason: 'damaged', detail: (e as Error).message };
  }
  const { meta, image } = read;
  let refused: Extract<SnapshotLoad, { loaded: false }> | undefined;
  try {
    refused = await whyNotUsable(meta, events, fingerprint);
  } catch (e) {
    image.close();
    throw e;
  }
  if (refused) {
    // a file not used is let go at once (its background reading would hold all of it in memory)
    image.close();
    return refused;
  }
  store.loadEncoded(image);
  let checkpoint: LogPosition | undefined;
  try {
    // the smallest collections come first in the file: this makes only a few of them
    checkpoint = await readCheckpoint(store);
  } catch (e) {
    await store.dropAll();
    return { loaded: false, reason: 'damaged', detail: (e as Error).message };
  }
  if (checkpoint !== meta.position) {
    await store.dropAll();
    return {
      loaded: false,
      reason: 'damaged',
      detail: 'le point de reprise des modèles ne correspond pas à celui de l’instantané',
    };
  }
  const documents = image.collections.reduce((n, c) => n + c.count, 0);
  return { loaded: true, position: meta.position, documents, bytes: read.bytes, ms: performance.now() - started };
}

export type SnapshotSave = SnapshotWriteStats & { position: LogPosition; documents: number; captureMs: number };

/**
 * Write the committed state of `store` with its checkpoint to `file`. The image is taken in one
 * synchronous step (read models exactly at the checkpoint they contain), then written over many
 * turns of the event loop. Answers undefined when the store has no checkpoint yet (nothing applied).
 */
export async function saveSnapshot(
  file: string,
  store: MemoryReadStore,
  events: EventStore,
  fingerprint: string,
): Promise<SnapshotSave | undefined> {
  const t = performance.now();
  const image = store.captureImage();
  const captureMs = performance.now() - t;
  const checkpoint = image.collections
    .find((c) => c.name === CHECKPOINTS)
    ?.docs.find((d) => d._id === CHECKPOINT_ID) as { position?: string } | undefined;
  if (checkpoint?.position === undefined) return undefined;
  const position = positionFromString(checkpoint.position);
  const eventId = await eventIdAt(events, position);
  if (eventId === undefined) return undefined;
  const meta: SnapshotMeta = {
    format: SNAPSHOT_FORMAT,
    fingerprint,
    position,
    eventId,
    createdAt: new Date().toISOString(),
  };
  const stats = await writeMemorySnapshot(file, image, meta);
  const documents = image.collections.reduce((n, c) => n + c.docs.length, 0);
  return { ...stats, position, documents, captureMs };
}
