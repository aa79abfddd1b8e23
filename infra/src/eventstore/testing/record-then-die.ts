/**
 * Child process for the kill -9 tests of the log's check (verify-log.test.ts): starts as the
 * embedded server does (the recorder begun, the log checked, the recorder started, its timer left
 * out: turns happen when a step says), then runs its steps, prints "ready" and waits to be killed.
 * Steps: `append:N` (N events), `tick` (one turn of the recorder), `pause:NAME` (prints "paused
 * NAME" and waits for the file DIR/NAME, the parent's cue).
 * Usage: node --import tsx record-then-die.ts <sqlite file> <record file> <code> <step>...
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod/v4';
import { SqliteEventStore } from '../sqlite-event-store';
import { RunningLogRecorder, verifyEventLog } from '../verify-log';

const [file, recordFile, code, ...steps] = process.argv.slice(2);
const schemas = { Noted: z.object({ n: z.number() }) };
const record = { file: recordFile, code };
const store = new SqliteEventStore(file);
const recorder = new RunningLogRecorder(store, file, record, schemas, {
  everyMs: 3_600_000,
  onError: (err) => process.stdout.write(`recorder: ${(err as Error).message}\n`),
});
recorder.begin();
const v = await verifyEventLog(store, file, schemas, record);
await recorder.start(v.last);
for (const step of steps) {
  const [what, arg] = step.split(':');
  if (what === 'append') {
    for (let i = 0; i < Number(arg); i++) {
      const n = Number((await store.lastPosition()) ?? 0n) + 1;
      await store.append(
        `s-${n % 3}`,
        [{ id: `run${n}`, type: 'Noted', data: { n }, metadata: { at: 'x' } as never }],
        'any',
      );
    }
  } else if (what === 'tick') await recorder.runOnce();
  else if (what === 'pause') {
    process.stdout.write(`paused ${arg}\n`);
    while (!existsSync(path.join(path.dirname(file), arg))) await new Promise((r) => setTimeout(r, 20));
  } else throw new Error(`unknown step ${step}`);
}
process.stdout.write(`ready ${JSON.stringify({ checked: v.checked, trustedUpTo: v.trustedUpTo?.toString() })}\n`);
setInterval(() => undefined, 60_000);
