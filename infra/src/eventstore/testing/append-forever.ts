/**
 * Child process for the kill -9 durability test: appends single events to a few streams as fast
 * as it can and writes each acknowledged event id to stdout, until it is killed.
 * Usage: node --import tsx append-forever.ts <sqlite file> [appenders]
 */
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../sqlite-event-store';

const file = process.argv[2];
if (!file) {
  console.error('usage: append-forever.ts <sqlite file> [appenders]');
  process.exit(2);
}
const appenders = Number(process.argv[3] ?? '4');
const store = new SqliteEventStore(file);

async function appender(k: number): Promise<never> {
  const streamId = `kill-${k}`;
  let expected: number | 'no_stream' = 'no_stream';
  for (;;) {
    const id = randomUUID();
    const r = await store.append(
      streamId,
      [{ id, type: 'Tick', data: { k }, metadata: { correlationId: id, at: new Date().toISOString() } }],
      expected,
    );
    expected = r.nextRevision;
    // Only after the append is acknowledged: the parent checks every printed id survived.
    process.stdout.write(`${id}\n`);
  }
}

await Promise.all(Array.from({ length: appenders }, (_, k) => appender(k)));
