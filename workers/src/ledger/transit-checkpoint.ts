import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { deserialize, serialize } from 'node:v8';
import type { LogPosition, RecordedEvent } from '@evo/domain';
import { writeFileAtomically } from '@evo/infra';

/** The gift-credit process's fold of the log: the gifts in transit after the event at `position`. */
export interface TransitCheckpoint {
  position: LogPosition;
  /** id of the event at `position` (a replaced log with as many events is told apart) */
  eventId: string;
  /** GiftSent events without a GiftReceived up to `position` */
  transit: RecordedEvent[];
}

const FORMAT = 1;
const HASH_BYTES = 32;

/*
 * File: v8.serialize({ format, position, eventId, transit }) (keeps the bigint positions), then the
 * SHA-256 of those bytes, written atomically (writeFileAtomically): a reader sees the previous
 * checkpoint or the new one.
 */

export async function writeTransitCheckpoint(file: string, state: TransitCheckpoint): Promise<void> {
  const body = serialize({ format: FORMAT, ...state });
  await writeFileAtomically(file, async (fh) => {
    await fh.write(Buffer.concat([body, createHash('sha256').update(body).digest()]));
  });
}

/** The checkpoint in `file`; undefined when there is none; throws (in French) when it is damaged. */
export async function readTransitCheckpoint(file: string): Promise<TransitCheckpoint | undefined> {
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const body = buf.subarray(0, buf.length - HASH_BYTES);
  if (
    buf.length <= HASH_BYTES ||
    !createHash('sha256')
      .update(body)
      .digest()
      .equals(buf.subarray(buf.length - HASH_BYTES))
  )
    throw new Error('fichier tronqué ou altéré (somme de contrôle fausse)');
  const value = deserialize(body) as Partial<TransitCheckpoint> & { format?: number };
  if (
    value.format !== FORMAT ||
    typeof value.position !== 'bigint' ||
    typeof value.eventId !== 'string' ||
    !Array.isArray(value.transit)
  )
    throw new Error(`format inconnu (${String(value.format)})`);
  return { position: value.position, eventId: value.eventId, transit: value.transit };
}
