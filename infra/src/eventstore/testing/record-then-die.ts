/**
 * Child process for the kill -9 tests of the log's check (verify-log.test.ts): checks the log as a
 * start does, records as a running process does, appends `recorded` events and brings the record up
 * to date, appends `after` more (not recorded; with `bad`, the last of them out of its schema),
 * prints "ready" and waits to be killed.
 * Usage: node --import tsx record-then-die.ts <sqlite file> <record file> <code> <recorded> <after> [bad]
 */
import { z } from 'zod/v4';
import { SqliteEventStore } from '../sqlite-event-store';
import { RunningLogRecorder, verifyEventLog } from '../verify-log';

const [file, recordFile, code, recorded, after, bad] = process.argv.slice(2);
const schemas = { Noted: z.object({ n: z.number() }) };
const record = { file: recordFile, code };
const store = new SqliteEventStore(file);
const v = await verifyEventLog(store, file, schemas, record);
// no timer turn during the test: the record is brought up to date when told
const recorder = new RunningLogRecorder(store, file, record, schemas, { from: v.last, everyMs: 3_600_000 });
await recorder.start();
const append = async (count: number, badLast = false) => {
  for (let i = 0; i < count; i++) {
    const n = Number((await store.lastPosition()) ?? 0n) + 1;
    const data = { n: badLast && i === count - 1 ? String(n) : n };
    await store.append(`s-${n % 3}`, [{ id: `run${n}`, type: 'Noted', data, metadata: { at: 'x' } as never }], 'any');
  }
};
await append(Number(recorded));
await recorder.runOnce();
await append(Number(after), bad === 'bad');
process.stdout.write(`ready ${JSON.stringify({ checked: v.checked, trustedUpTo: v.trustedUpTo?.toString() })}\n`);
setInterval(() => undefined, 60_000);
