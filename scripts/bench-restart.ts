/**
 * Restart benchmark (not a test): how long the embedded product (`command-api/src/main.ts`, the
 * real entry point, in a child process) takes until it answers HTTP, and its resident memory, on a
 * DATA_DIR whose log holds 100k, 1M and 3M events: first without a snapshot of the read models
 * (they are rebuilt from event 1), then, after a clean stop wrote one, with it (loaded, then only
 * the events since are replayed). Also prints what writing that snapshot cost (wall time, size,
 * the longest the event loop was held) and the start's phases from the product's log lines.
 *
 *   npx tsx scripts/bench-restart.ts [--sizes=100000,1000000,3000000] [--generate-only]
 *
 * The logs are written through the deciders (scripts/restart-history.ts) once and cached in
 * .cache/bench-restart/ (gitignored): later runs only copy them. The server runs as `npm start`
 * runs it (the server bundle that `prestart` builds, scripts/build-server.mjs: built once here, its
 * build time printed apart) with its flags plus --max-old-space-size=8192 (the default heap limit
 * is too small for the read models of the largest log).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESTART_LOGS as CACHE, ensureHistoryLogs, historyLogFile } from './lib/history-log';
import { printGoal } from './lib/goals';
import { SERVER_BUNDLE, buildServer } from './build-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const SIZES = (arg('sizes') ?? process.env.BENCH_RESTART_SIZES ?? '100000,1000000,3000000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0)
  .sort((a, b) => a - b);

const fmtCount = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const logFile = (size: number) => historyLogFile(CACHE, size);

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

interface Start {
  ms: number;
  cpu: number;
  rssMb: number;
  peakMb: number;
  verifyMs?: number;
  readModelsMs?: number;
  snapshot?: { ms: number; bytes: number; position: string; documents: number };
  ignored?: string;
  /** the snapshot written at the clean stop */
  written?: { ms: number; bytes: number; maxBlockMs: number; documents: number };
  answers: string;
  /** how long the four answers below took, asked as soon as the product was ready */
  answersMs: number;
  /** with a snapshot: when its last documents were made (ms since the process was started), and the memory then */
  allMade?: { atMs: number; rssMb: number; maxBlockMs: number };
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

/** Start the product on `dataDir`, time it until it answers HTTP, read a few answers, stop it cleanly. */
async function startOnce(dataDir: string): Promise<Start> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--max-old-space-size=8192', '--enable-source-maps', SERVER_BUNDLE],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DEMO_DATA: 'false',
        LOG_LEVEL: 'info',
        SNAPSHOT_EVERY_EVENTS: '0',
        SNAPSHOT_EVERY_MINUTES: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let ms = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`le produit s'est arrêté : ${out.slice(-2000)}`);
    try {
      const r = await fetch(`${base}/ready`);
      if (r.status === 200) {
        ms = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const { rss } = procStatus(child.pid!);
  const cpu = cpuSeconds(child.pid!);
  // the same answers before and after a restart (compared by the caller)
  const answers: string[] = [];
  const asking = performance.now();
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@evo.local', password: 'evo-admin-2026' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  for (const url of [
    '/api/users/with-videos?limit=20',
    '/api/users/profile/Membre7',
    '/api/users/profile/Membre70',
    '/api/videos/5/comments',
  ]) {
    const r = await fetch(base + url, { headers: { cookie } });
    answers.push(`${r.status} ${await r.text()}`);
  }
  const answersMs = performance.now() - asking;
  // a snapshot's documents are made as they are used, the rest in the background: wait for the last
  let allMade: Start['allMade'];
  const madeLine = 'modèles de lecture de l’instantané tous en mémoire';
  if (out.includes('modèles de lecture chargés')) {
    for (const until = performance.now() + 300_000; !out.includes(madeLine) && performance.now() < until;)
      await new Promise((r) => setTimeout(r, 25));
    if (out.includes(madeLine)) {
      const line = out.split('\n').find((l) => l.includes(madeLine))!;
      allMade = {
        atMs: performance.now() - started,
        rssMb: procStatus(child.pid!).rss,
        maxBlockMs: (JSON.parse(line) as { maxBlockMs: number }).maxBlockMs,
      };
    }
  }
  const { hwm } = procStatus(child.pid!);
  child.kill('SIGTERM');
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
  const ready = find('read models ready');
  const loaded = find('modèles de lecture chargés');
  const ignored = find('instantané ignoré');
  const written = find('instantané des modèles de lecture écrit');
  return {
    ms,
    cpu,
    rssMb: rss,
    peakMb: hwm,
    verifyMs: verified?.ms as number | undefined,
    readModelsMs: ready?.ms as number | undefined,
    snapshot: loaded
      ? {
          ms: loaded.ms as number,
          bytes: loaded.bytes as number,
          position: loaded.position as string,
          documents: loaded.documents as number,
        }
      : undefined,
    ignored: ignored?.reason as string | undefined,
    written: written
      ? {
          ms: written.ms as number,
          bytes: written.bytes as number,
          maxBlockMs: written.maxBlockMs as number,
          documents: written.documents as number,
        }
      : undefined,
    answers: answers.join('\n'),
    answersMs,
    allMade,
  };
}

async function main() {
  console.log(
    `Redémarrage du produit embarqué (${os.cpus().length} cœurs, charge ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}) — machine partagée et chargée : des ordres de grandeur, pas des absolus.`,
  );
  await ensureHistoryLogs(CACHE, SIZES);
  if (process.argv.includes('--generate-only')) return;
  const building = performance.now();
  await buildServer();
  console.log(`  bundle du serveur (prestart de npm start) construit en ${sec(performance.now() - building)}`);
  const rows: string[][] = [];
  const tmp = path.join(ROOT, '.bench-tmp');
  mkdirSync(tmp, { recursive: true });
  for (const size of SIZES) {
    const dataDir = path.join(tmp, `restart-${size}`);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(logFile(size), path.join(dataDir, 'events.sqlite'));
    try {
      const cold = await startOnce(dataDir);
      console.log(
        `  ${fmtCount(size)}, sans instantané : prêt en ${sec(cold.ms)} (CPU ${cold.cpu.toFixed(1)} s), ${mb(cold.rssMb)}`,
      );
      const warm = await startOnce(dataDir);
      const same = cold.answers === warm.answers ? 'oui' : 'NON';
      const w = cold.written;
      rows.push([
        fmtCount(size),
        'sans instantané',
        `${sec(cold.ms)} (CPU ${cold.cpu.toFixed(1)} s)`,
        `${mb(cold.rssMb)} (pic ${mb(cold.peakMb)})`,
        `vérif. journal ${sec(cold.verifyMs ?? 0)}, modèles ${sec(cold.readModelsMs ?? 0)}`,
        w
          ? `écrit à l'arrêt : ${sec(w.ms)}, ${mb(w.bytes)}, ${w.documents} docs, boucle tenue ≤ ${w.maxBlockMs} ms d'affilée`
          : '',
      ]);
      rows.push([
        fmtCount(size),
        'avec instantané',
        `${sec(warm.ms)} (CPU ${warm.cpu.toFixed(1)} s)`,
        `${mb(warm.rssMb)} (pic ${mb(warm.peakMb)})`,
        `vérif. journal ${sec(warm.verifyMs ?? 0)}, modèles ${sec(warm.readModelsMs ?? 0)} (dont chargement ${sec(warm.snapshot?.ms ?? 0)})`,
        warm.snapshot
          ? `mêmes réponses HTTP : ${same} (les 4 premières en ${sec(warm.answersMs)}) ; ` +
            (warm.allMade
              ? `tous les documents faits à ${sec(warm.allMade.atMs)}, ${mb(warm.allMade.rssMb)}, boucle tenue ≤ ${warm.allMade.maxBlockMs} ms d'affilée`
              : 'documents pas tous faits en 5 min')
          : `instantané non chargé (${warm.ignored ?? '?'})`,
      ]);
      console.log(rows.at(-2)!.join(' | '));
      console.log(rows.at(-1)!.join(' | '));
      printGoal(
        `embedded start, ${fmtCount(size)} events, no snapshot`,
        `ready in ${sec(cold.ms)}, ${mb(cold.rssMb)} resident`,
        'reference',
        undefined,
      );
      printGoal(
        `embedded restart, ${fmtCount(size)} events, with the snapshot of its clean stop`,
        warm.snapshot
          ? `ready in ${sec(warm.ms)}, ${mb(warm.rssMb)} resident; same HTTP answers: ${same === 'oui' ? 'yes' : 'NO'}, ` +
              `the first four in ${sec(warm.answersMs)}; every document made at ${warm.allMade ? sec(warm.allMade.atMs) : '?'}`
          : `snapshot not loaded (${warm.ignored ?? '?'})`,
        '≤ 2 s (no event since the snapshot)',
        warm.snapshot !== undefined && warm.ms <= 2000 && same === 'oui',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(
    '\n| événements | démarrage | prêt (répond en HTTP ; CPU du processus jusque-là) | mémoire résidente | phases | note |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  console.log('\nObjectif (issue 14) : prêt en ≤ 2 s plus les événements depuis le dernier instantané.');
}

await main();
