/**
 * Restart benchmark (not a test): the embedded product (the server bundle `npm start` runs, in a
 * child process) on a DATA_DIR whose log holds 100k, 1M and 3M events, three starts each:
 * - first start: no read-model file yet, every read model built from event 1 (the reference);
 * - after a clean stop: the read models are in DATA_DIR/read-models.sqlite, current with the log;
 * - after `kill -9`: the process killed while it was writing (logins appended), then started again.
 * Each row: time until `/ready` answers 200 and until the first API answer, CPU of the process until
 * then, resident memory (then, and the peak), whether four API answers equal the first start's,
 * and the start's phases from the product's log lines (the log's check, the read models).
 * Goals (issue 27): first answer ≤ 1 s after a clean stop and after kill -9, every answer correct
 * at once, ≤ 300 MB resident.
 *
 *   npx tsx scripts/bench-restart.ts [--sizes=100000,1000000,3000000] [--generate-only]
 *
 * The logs are written through the deciders (scripts/restart-history.ts) once and cached in
 * .cache/bench-restart/ (gitignored): later runs only copy them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESTART_LOGS as CACHE, ensureHistoryLogs, historyLogFile } from './lib/history-log';
import { childLogger } from '@evo/infra';
import { printGoal, printReport } from './lib/goals';
import { SERVER_BUNDLE, buildServer } from './build-server.mjs';
import { textArg } from './lib/args';
import { freePort } from './lib/http-load';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = (textArg('sizes') ?? process.env.BENCH_RESTART_SIZES ?? '100000,1000000,3000000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0)
  .sort((a, b) => a - b);

const fmtCount = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const logFile = (size: number) => historyLogFile(CACHE, size);
const log = childLogger('bench-restart');

const ANSWERS = ['/api/users/with-videos?limit=20', '/api/users/profile/Membre7', '/api/users/profile/Membre70'];

const login = (base: string) =>
  fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'admin@evo.local', password: 'evo-admin-2026' }),
  });

interface Start {
  /** until /ready answered 200 */
  readyMs: number;
  /** until the first API answer (a public video's comments) */
  firstAnswerMs: number;
  cpu: number;
  rss: number;
  peak: number;
  answers: string;
  verifyMs?: number;
  verified?: string;
  verifiedEvents?: number;
  /** why the start did not use the record beside the log, when there was one */
  recordIgnored?: string;
  readModelsMs?: number;
}

/** CPU seconds the process used so far (user + system): a figure other load on the machine hardly changes */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function procStatus(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(s)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Start the product on `dataDir`, time it until it answers, read ANSWERS; then stop it cleanly, or kill -9 it while it writes. */
async function startOnce(dataDir: string, end: 'stop' | 'kill'): Promise<Start> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let readyMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`le produit s'est arrêté : ${out.slice(-2000)}`);
    try {
      if ((await fetch(`${base}/ready`)).status === 200) {
        readyMs = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  // the first answer: a public video's comments (no session needed), then the others as the administrator
  const answers: string[] = [];
  const first = await fetch(`${base}/api/videos/5/comments`);
  answers.push(`${first.status} ${await first.text()}`);
  const firstAnswerMs = performance.now() - started;
  const loggedIn = await login(base);
  const cookie = (loggedIn.headers.get('set-cookie') ?? '').split(';')[0];
  for (const url of ANSWERS) {
    const r = await fetch(base + url, { headers: { cookie } });
    answers.push(`${r.status} ${await r.text()}`);
  }
  const { rss } = procStatus(child.pid!);
  const cpu = cpuSeconds(child.pid!);
  const { hwm } = procStatus(child.pid!);
  if (end === 'kill') {
    // appends in flight (logins of the administrator) when the process dies
    const again = () => login(base).catch(() => undefined);
    await Promise.all(Array.from({ length: 8 }, again));
    void Promise.all(Array.from({ length: 8 }, again));
    child.kill('SIGKILL');
  } else child.kill('SIGTERM');
  await exited;
  const lines = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return {};
      }
    });
  const find = (msg: string) => lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith(msg));
  const verified = find('event log verified');
  return {
    readyMs,
    firstAnswerMs,
    cpu,
    rss,
    peak: hwm,
    answers: answers.join('\n'),
    verifyMs: verified?.ms as number | undefined,
    verified: verified?.msg as string | undefined,
    verifiedEvents: verified?.events as number | undefined,
    recordIgnored: verified?.recordIgnored as string | undefined,
    readModelsMs: find('read models ready')?.ms as number | undefined,
  };
}

/** What the start's check of the log read: the whole log, or what a record left to check. */
function logCheck(run: Start): string {
  const events = `${run.verifiedEvents ?? '?'} event${run.verifiedEvents === 1 ? '' : 's'} read`;
  if (run.verified?.includes('unchanged')) return `${events}, after the clean stop's record`;
  if (run.verified?.includes('run killed')) return `${events}, the killed run's -wal and after its record`;
  return `${events}, the whole log and its pages${run.recordIgnored ? ` (record not used: ${run.recordIgnored})` : ''}`;
}

async function main() {
  console.log(
    `Redémarrage du produit embarqué (${os.cpus().length} cœurs, charge ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}) — machine partagée : des ordres de grandeur.`,
  );
  await ensureHistoryLogs(CACHE, SIZES);
  if (process.argv.includes('--generate-only')) return;
  await buildServer();
  const rows: string[][] = [];
  const tmp = path.join(ROOT, '.bench-tmp');
  mkdirSync(tmp, { recursive: true });
  for (const size of SIZES) {
    const dataDir = path.join(tmp, `restart-${size}`);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(logFile(size), path.join(dataDir, 'events.sqlite'));
    try {
      const first = await startOnce(dataDir, 'stop');
      const clean = await startOnce(dataDir, 'kill');
      const crashed = await startOnce(dataDir, 'stop');
      const runs: Array<[string, Start, boolean]> = [
        ['first start (read models built from the log)', first, false],
        ['after a clean stop', clean, true],
        ['after kill -9 while writing', crashed, true],
      ];
      for (const [what, run, goal] of runs) {
        const same = run.answers === first.answers;
        const row = [
          fmtCount(size),
          what,
          `ready ${sec(run.readyMs)}, first answer ${sec(run.firstAnswerMs)} (CPU ${run.cpu.toFixed(1)} s)`,
          `${mb(run.rss)} (peak ${mb(run.peak)})`,
          `log check ${sec(run.verifyMs ?? 0)} (${logCheck(run)}), read models ${sec(run.readModelsMs ?? 0)}`,
          same ? 'same answers' : 'ANSWERS DIFFER',
        ];
        rows.push(row);
        log.info({ row: row.join(' | ') }, 'démarrage mesuré');
        if (!goal) {
          printGoal(`embedded ${what}, ${fmtCount(size)} events`, row[2] + `, ${row[3]}`, 'reference', undefined);
          continue;
        }
        printGoal(
          `embedded restart ${what}, ${fmtCount(size)} events`,
          `${row[2]}, ${row[3]}, ${row[5]}`,
          'first answer ≤ 1 s, every answer correct at once, ≤ 300 MB resident',
          run.firstAnswerMs <= 1000 && same && run.peak <= 300 * 1024 * 1024,
        );
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  printReport(
    'Redémarrage sur un DATA_DIR existant',
    ['events', 'start', 'times (CPU of the process until then)', 'resident', 'phases', 'answers'],
    rows,
  );
}

await main();
