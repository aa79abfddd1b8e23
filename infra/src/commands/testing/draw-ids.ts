/**
 * Child process for the id-block tests: draws ids of one sequence from a SQLite log shared with
 * the parent, `concurrency` callers at a time, and writes each id to stdout once it is given,
 * `count` ids in all (then exits) or until it is killed (count 0).
 * Usage: node --import tsx draw-ids.ts <sqlite file> <sequence> <count> [concurrency] [block size]
 */
import { SqliteEventStore } from '../../eventstore/sqlite-event-store';
import { systemContext } from '../command-handler';
import { IdBlocks } from '../id-blocks';

const [file, sequence, countArg, concurrencyArg, blockArg] = process.argv.slice(2);
if (!file || !sequence || countArg === undefined) {
  console.error('usage: draw-ids.ts <sqlite file> <sequence> <count> [concurrency] [block size]');
  process.exit(2);
}
const count = Number(countArg);
const store = new SqliteEventStore(file);
const ids = new IdBlocks(store, blockArg ? { blockSize: () => Number(blockArg) } : {});
let drawn = 0;
await Promise.all(
  Array.from({ length: Number(concurrencyArg ?? '8') }, async () => {
    while (count === 0 || drawn < count) {
      drawn++;
      process.stdout.write(`${await ids.next(sequence, systemContext())}\n`);
    }
  }),
);
await store.close();
