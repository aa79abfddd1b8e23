import type { ZodTypeAny } from 'zod';
import type { RecordedEvent } from '@evo/domain';
import { DAMAGED_LOG_ADVICE, DataFileError, UnreadableEventError } from './data-file-error';
import { isSqliteDamage, type SqliteEventStore } from './sqlite-event-store';

/** What is wrong with one stored event, in French; undefined when it is sound. */
export function eventProblem(event: RecordedEvent, schemas: Record<string, ZodTypeAny>): string | undefined {
  const schema = schemas[event.type];
  if (!schema) return `son type « ${event.type} » est inconnu de cette version d'EVO`;
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : '(données)';
    return `ses données ne respectent pas le schéma de ${event.type} (champ ${field} : ${issue?.message ?? 'invalide'})`;
  }
  const m = event.metadata as unknown as Record<string, unknown> | null;
  if (!m || typeof m !== 'object' || typeof m.at !== 'string')
    return 'ses métadonnées sont incomplètes (date « at » absente)';
  return undefined;
}

const describe = (e: { position: bigint; streamId: string; type: string }) =>
  `L'événement à la position ${e.position} (flux ${e.streamId}, type ${e.type})`;

/**
 * Read the whole embedded log once before anything else uses it: SQLite's own page check, then
 * every event read back and validated against its schema. The first problem found stops the start
 * with a DataFileError naming the file, the position and what to do. Answers the events read.
 */
export async function verifyEventLog(
  store: SqliteEventStore,
  file: string,
  schemas: Record<string, ZodTypeAny>,
): Promise<number> {
  let findings: string[];
  try {
    findings = store.checkIntegrity();
  } catch (e) {
    if (!isSqliteDamage(e)) throw e;
    findings = [(e as Error).message];
  }
  if (findings.length > 0) {
    throw new DataFileError(
      file,
      `Le journal d'événements est endommagé : ${findings.slice(0, 3).join(' ; ')}.`,
      DAMAGED_LOG_ADVICE,
    );
  }
  let count = 0;
  let last: bigint | undefined;
  try {
    for await (const batch of store.readAll(undefined, 2000)) {
      for (const event of batch) {
        const problem = eventProblem(event, schemas);
        if (problem)
          throw new DataFileError(
            file,
            `${describe(event)} est illisible : ${problem}.`,
            DAMAGED_LOG_ADVICE,
            event.position,
          );
        last = event.position;
        count++;
      }
    }
  } catch (e) {
    if (e instanceof UnreadableEventError) {
      throw new DataFileError(file, `${describe(e)} est illisible : ${e.detail}.`, DAMAGED_LOG_ADVICE, e.position);
    }
    if (isSqliteDamage(e)) {
      const where = last === undefined ? 'dès le premier événement' : `après la position ${last}`;
      throw new DataFileError(
        file,
        `Le journal d'événements est endommagé : lecture impossible ${where} (${(e as Error).message}).`,
        DAMAGED_LOG_ADVICE,
        last,
      );
    }
    throw e;
  }
  return count;
}
