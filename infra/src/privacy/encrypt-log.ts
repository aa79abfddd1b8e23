import {
  PERSONAL_FIELDS,
  erasedValue,
  eventSchemas,
  personalDataOwner,
  personalStreamKind,
  type LogPosition,
} from '@evo/domain';
import type { KeyStore } from '../keys/port';
import { decryptField, encryptField, isEncrypted } from './field-cipher';
import { storedStreamId } from './personal-data-event-store';
import type { RawLog } from './raw-logs';

export interface EncryptLogProgress {
  phase: 'chiffrement' | 'flux' | 'vérification' | 'compactage';
  done: number;
  total: number;
}

export interface EncryptLogReport {
  /** events read */
  events: number;
  /** events whose fields this run encrypted */
  encrypted: number;
  /** events of members whose key was destroyed, whose clear fields this run replaced by the erased values */
  erased: number;
  /** streams named by a personal value renamed to their hashed name */
  renamed: number;
  /** what the final check found (empty: every personal field encrypted and every event readable and valid) */
  problems: string[];
}

const context = (type: string, field: string) => `${type}.${field}`;

/**
 * `npm run data:encrypt`: brings a log written before crypto-shredding to what
 * PersonalDataEventStore writes. Each batch of events is rewritten in one transaction (their
 * clear personal fields encrypted with their owner's key, made when missing; a destroyed
 * member's replaced by the erased values), then each stream named by a personal value is renamed
 * to its hashed name (one transaction each), then everything is checked, then the table's files
 * are rewritten (VACUUM) so that the old clear rows are gone. What is done already (an encrypted
 * field, a renamed stream) is skipped: a run stopped at any point, kill -9 included, is finished
 * by the next.
 */
export async function encryptLog(options: {
  log: RawLog;
  keys: KeyStore;
  batchSize?: number;
  onProgress?: (p: EncryptLogProgress) => void;
}): Promise<EncryptLogReport> {
  const { log, keys } = options;
  const batchSize = options.batchSize ?? 1000;
  const progress = options.onProgress ?? (() => undefined);
  const total = await log.count();
  const report: EncryptLogReport = { events: 0, encrypted: 0, erased: 0, renamed: 0, problems: [] };

  let after: LogPosition | undefined;
  for (;;) {
    const rows = await log.rowsAfter(after, batchSize);
    if (rows.length === 0) break;
    const updates: Array<{ position: bigint; data: string }> = [];
    for (const row of rows) {
      const data = JSON.parse(row.data) as Record<string, unknown>;
      const owner = personalDataOwner(row.type, data);
      if (owner === undefined) continue;
      const found = await keys.find(owner);
      const key = found === undefined ? await keys.keyFor(owner) : found;
      let changed = false;
      for (const [field, as] of Object.entries(PERSONAL_FIELDS[row.type]!.fields)) {
        const v = data[field];
        if (typeof v !== 'string') continue;
        if (key === 'destroyed') {
          // no key to encrypt with: the clear value goes (a ciphertext stays, unreadable)
          if (!isEncrypted(v) && v !== erasedValue(as, owner)) {
            data[field] = erasedValue(as, owner);
            changed = true;
          }
        } else if (decryptField(key, context(row.type, field), v) === undefined) {
          data[field] = encryptField(key, context(row.type, field), v);
          changed = true;
        }
      }
      if (changed) {
        updates.push({ position: row.position, data: JSON.stringify(data) });
        if (key === 'destroyed') report.erased++;
        else report.encrypted++;
      }
    }
    await log.updateData(updates);
    report.events += rows.length;
    after = rows[rows.length - 1]!.position;
    progress({ phase: 'chiffrement', done: report.events, total });
  }

  const secret = await keys.platformSecret();
  const clearNamed = (await log.streamIds()).filter((id) => personalStreamKind(id) !== undefined);
  for (const id of clearNamed) {
    await log.renameStream(id, storedStreamId(secret, id));
    report.renamed++;
    if (report.renamed % 500 === 0 || report.renamed === clearNamed.length)
      progress({ phase: 'flux', done: report.renamed, total: clearNamed.length });
  }

  report.problems = await checkEncrypted(log, keys, batchSize, (done) =>
    progress({ phase: 'vérification', done, total }),
  );
  if (report.problems.length === 0) {
    progress({ phase: 'compactage', done: 0, total: 1 });
    await log.compact();
    progress({ phase: 'compactage', done: 1, total: 1 });
  }
  return report;
}

/**
 * Every personal field encrypted with its owner's key and decrypting (or, for a member whose key
 * is destroyed, unreadable or erased), every event as it then reads valid against its schema, and
 * no stream named by a personal value in clear. Answers the problems found (the first 20).
 */
export async function checkEncrypted(
  log: RawLog,
  keys: KeyStore,
  batchSize = 1000,
  onProgress: (done: number) => void = () => undefined,
): Promise<string[]> {
  const problems: string[] = [];
  const note = (p: string) => {
    if (problems.length < 20) problems.push(p);
  };
  let after: LogPosition | undefined;
  let done = 0;
  for (;;) {
    const rows = await log.rowsAfter(after, batchSize);
    if (rows.length === 0) break;
    for (const row of rows) {
      const data = JSON.parse(row.data) as Record<string, unknown>;
      const owner = personalDataOwner(row.type, data);
      if (owner === undefined) continue;
      const key = await keys.find(owner);
      const where = `l'événement ${row.position} (${row.type})`;
      if (key === undefined) {
        note(`${where} : aucune clé pour le membre ${owner}`);
        continue;
      }
      const read = { ...data };
      for (const [field, as] of Object.entries(PERSONAL_FIELDS[row.type]!.fields)) {
        const v = data[field];
        if (typeof v !== 'string') continue;
        if (key === 'destroyed') {
          if (!isEncrypted(v) && v !== erasedValue(as, owner)) note(`${where} : le champ ${field} est en clair`);
          read[field] = erasedValue(as, owner);
          continue;
        }
        const clear = decryptField(key, context(row.type, field), v);
        if (clear === undefined) note(`${where} : le champ ${field} n'est pas chiffré avec la clé de son membre`);
        else read[field] = clear;
      }
      const schema = eventSchemas[row.type];
      if (schema && !schema.safeParse(read).success) note(`${where} : illisible une fois déchiffré`);
    }
    done += rows.length;
    after = rows[rows.length - 1]!.position;
    onProgress(done);
  }
  for (const id of await log.streamIds())
    if (personalStreamKind(id) !== undefined) note(`le flux ${id.split('-')[0]}-… porte encore sa valeur en clair`);
  return problems;
}
