// npm run bench: every benchmark of the project, one after the other (or those named: npm run bench -- eventstore gifts).
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => /^bench-.+\.ts$/.test(f))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

/**
 * Each benchmark runs with the young generation `npm start` gives the server, room for the social
 * benchmark's read models (about 2 GB), and gc() exposed so that it starts each query from a
 * collected heap.
 */
const NODE_FLAGS = [
  // BENCH_DEFAULT_GC=1: Node's default young generation (issue 14's goals are for the default flags)
  ...(process.env.BENCH_DEFAULT_GC === '1' ? [] : ['--max-semi-space-size=64']),
  '--max-old-space-size=6144',
  '--expose-gc',
];

let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const r = spawnSync(process.execPath, [...NODE_FLAGS, '--import', 'tsx', path.join(dir, file)], {
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  if (r.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
