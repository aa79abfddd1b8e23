// npm run bench: every benchmark of the project, one after the other (or those named: npm run bench -- eventstore gifts),
// then issue 14's figures of this run together, each with its goal (the lines scripts/lib/goals.ts prints).
import { readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { GOAL_MARK } from './lib/goals';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => /^bench-.+\.ts$/.test(f))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

/**
 * Each benchmark runs with Node's default young generation (issue 14's goals are for the default
 * GC flags; BENCH_SEMI_SPACE=64 gives the one `npm start` used to set), room for the social
 * benchmark's read models, and gc() exposed so that it starts each query from a collected heap.
 */
const NODE_FLAGS = [
  ...(process.env.BENCH_SEMI_SPACE ? [`--max-semi-space-size=${process.env.BENCH_SEMI_SPACE}`] : []),
  '--max-old-space-size=6144',
  '--expose-gc',
];

/** runs one benchmark, its output shown as it comes; resolves to its exit code and goal lines */
function run(file: string): Promise<{ code: number; goals: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', path.join(dir, file)], {
      stdio: ['inherit', 'pipe', 'inherit'],
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    const goals: string[] = [];
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith(GOAL_MARK)) goals.push(line.slice(GOAL_MARK.length).trim());
    });
    child.on('close', (code) => {
      if (pending.startsWith(GOAL_MARK)) goals.push(pending.slice(GOAL_MARK.length).trim());
      resolve({ code: code ?? 1, goals });
    });
  });
}

const started = performance.now();
let failed = 0;
const summary: Array<[string, string[]]> = [];
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const { code, goals } = await run(file);
  if (code !== 0) failed++;
  if (goals.length > 0) summary.push([file, goals]);
}
if (summary.length > 0) {
  console.log(
    `\n=== issue 14: the figures of this run, each with its goal (${((performance.now() - started) / 60_000).toFixed(1)} min; ${cpus().length} cores, load average now ${loadavg()[0].toFixed(2)}; node flags ${NODE_FLAGS.join(' ')}) ===`,
  );
  console.log('| benchmark | figure | measured | goal | |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [file, goals] of summary) for (const g of goals) console.log(`| ${file} | ${g} |`);
}
process.exit(failed > 0 ? 1 : 0);
