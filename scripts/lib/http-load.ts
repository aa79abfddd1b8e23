/**
 * The HTTP load generator of the benchmarks (scripts/bench-write-mix.ts, scripts/bench-gifts.ts):
 * keep-alive clients with their cookie, a closed loop per client with a warm-up, p50/p99 and the
 * serving process's CPU per request from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The variables of an embedded EVO under load, whatever the caller's environment holds: the
 * default stores in a data directory of its own, no demo data, and none of the limits a load test
 * meets by design.
 */
export const embeddedLoadEnv = (dataDir: string, port: number): Record<string, string> => ({
  EVENTSTORE_URL: '',
  MONGO_URL: '',
  REDIS_URL: '',
  DATA_DIR: dataDir,
  PORT: String(port),
  DEMO_DATA: 'false',
  LOG_LEVEL: 'warn',
  // the run registers all its members from one address
  REGISTER_LIMIT_PER_HOUR: '100000',
  // each client writes far beyond what a person does
  MEMBER_LIMITS: 'false',
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function waitReady(url: string, child: ChildProcess, output: () => string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`child exited:\n${output()}`);
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`not ready:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A node child process (tsx loaded), its output kept for error messages. */
export function spawnNode(args: string[], options: { cwd: string; env: Record<string, string>; nodeArgs?: string[] }) {
  let out = '';
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

export interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** One client = one keep-alive connection and its cookie. */
export class HttpClient {
  cookie = '';
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  constructor(private readonly base: URL) {}

  async request(method: string, url: string, body?: unknown): Promise<Answer> {
    try {
      return await this.send(method, url, body);
    } catch (e) {
      // a kept-alive connection the server closed while idle (between rows): once more, on a new one
      if ((e as { reused?: boolean }).reused) return this.send(method, url, body);
      throw e;
    }
  }

  private send(method: string, url: string, body?: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.base.hostname,
          port: this.base.port,
          path: url,
          method,
          agent: this.agent,
          headers: {
            ...(this.cookie ? { cookie: this.cookie } : {}),
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const setCookie = res.headers['set-cookie']?.[0];
            if (setCookie) this.cookie = setCookie.split(';')[0];
            const text = Buffer.concat(chunks).toString();
            let json: Record<string, unknown> = {};
            try {
              json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
            } catch {
              json = { text };
            }
            resolve({ status: res.statusCode ?? 0, json });
          });
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) =>
        reject(req.reusedSocket && e.code === 'ECONNRESET' ? Object.assign(e, { reused: true }) : e),
      );
      if (payload) req.write(payload);
      req.end();
    });
  }

  close() {
    this.agent.destroy();
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, USER_HZ
  } catch {
    return undefined;
  }
}

export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface Measure {
  requests: number;
  errors: number;
  rate: number;
  p50: number;
  p99: number;
}

/** What one kind of call did in a load (a scenario row, or one command of a mix). */
export function measureOf(latencies: number[], errors: number, seconds: number): Measure {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    errors,
    rate: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

/**
 * A client's call: `run` answers true when it succeeded, else what went wrong (status and body);
 * `kind` groups calls in the results (one per command).
 */
export interface Call {
  kind: string;
  run: () => Promise<true | string>;
}

/** true for an expected status, else the status and body (for the first errors of a row). */
export const expectStatus = (a: Answer, ...ok: number[]): true | string =>
  ok.includes(a.status) || `${a.status} ${JSON.stringify(a.json).slice(0, 200)}`;

export interface LoadResult {
  total: Measure;
  byKind: Map<string, Measure>;
  /** CPU time the serving process used per request in the measured window (µs), when known */
  cpuPerRequestUs?: number;
  /** the first refusals seen (status and body), to tell a refused request from a slow one */
  firstErrors: string[];
}

/**
 * Each client loops on its calls (`next()` gives its next one) for `warmup + seconds`; only the
 * calls started after the warm-up and ended before the end count.
 */
export async function load(
  clients: Array<() => Call>,
  options: { warmupSeconds: number; seconds: number; serverPid?: number },
): Promise<LoadResult> {
  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const all: number[] = [];
  let allErrors = 0;
  const firstErrors: string[] = [];
  const warmupEnd = performance.now() + options.warmupSeconds * 1000;
  const end = warmupEnd + options.seconds * 1000;
  let cpuStart: number | undefined;
  let cpuEnd: number | undefined;
  const startTimer = setTimeout(() => (cpuStart = cpuSecondsOf(options.serverPid)), options.warmupSeconds * 1000);
  const endTimer = setTimeout(
    () => (cpuEnd = cpuSecondsOf(options.serverPid)),
    (options.warmupSeconds + options.seconds) * 1000,
  );
  await Promise.all(
    clients.map(async (next) => {
      while (performance.now() < end) {
        const call = next();
        const t0 = performance.now();
        let outcome: true | string;
        try {
          outcome = await call.run();
        } catch (e) {
          outcome = String(e);
        }
        const ok = outcome === true;
        const t1 = performance.now();
        if (t0 >= warmupEnd && t1 <= end) {
          if (!ok && firstErrors.length < 5) firstErrors.push(`${call.kind}: ${String(outcome)}`);
          if (!latencies.has(call.kind)) latencies.set(call.kind, []);
          latencies.get(call.kind)!.push(t1 - t0);
          all.push(t1 - t0);
          if (!ok) {
            errors.set(call.kind, (errors.get(call.kind) ?? 0) + 1);
            allErrors++;
          }
        }
      }
    }),
  );
  clearTimeout(startTimer);
  clearTimeout(endTimer);
  // the last call may end before the end timer's turn: the CPU is then read now
  cpuEnd ??= cpuSecondsOf(options.serverPid);
  const byKind = new Map<string, Measure>();
  for (const [kind, l] of latencies) byKind.set(kind, measureOf(l, errors.get(kind) ?? 0, options.seconds));
  return {
    total: measureOf(all, allErrors, options.seconds),
    byKind,
    cpuPerRequestUs:
      cpuStart !== undefined && cpuEnd !== undefined && all.length > 0
        ? ((cpuEnd - cpuStart) * 1e6) / all.length
        : undefined,
    firstErrors,
  };
}

/** The line above a load's table: how it was run, and on what machine under what load. */
export function loadConditions(clients: number, warmupSeconds: number, seconds: number): string {
  const [load1, load5] = os.loadavg();
  return `${clients} concurrent clients, keep-alive, ${warmupSeconds} s warm-up then ${seconds} s measured; node ${process.version}, ${os.cpus().length} CPU(s), load average ${load1.toFixed(1)} (1 min) ${load5.toFixed(1)} (5 min)`;
}

/** The columns of a measured row against the bare route (after the row's own naming columns). */
export const MEASURE_COLUMNS = [
  'requests',
  'req/s',
  'p50 ms',
  'p99 ms',
  'errors',
  'vs bare',
  'server CPU/req',
  'CPU vs bare',
];

/** A row's MEASURE_COLUMNS: its rate and CPU per request as shares of the bare route's. */
export function measureCells(
  m: Measure,
  cpuPerRequestUs: number | undefined,
  vsBare: number,
  cpuVsBare: number | undefined,
): string[] {
  return [
    String(m.requests),
    m.rate.toFixed(0),
    m.p50.toFixed(2),
    m.p99.toFixed(2),
    String(m.errors),
    `${(vsBare * 100).toFixed(0)} %`,
    cpuPerRequestUs === undefined ? '—' : `${cpuPerRequestUs.toFixed(0)} µs`,
    cpuVsBare === undefined ? '—' : `${cpuVsBare.toFixed(1)}×`,
  ];
}

/** Fixed-width table, first column left-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A bench member, registered through the real API (multipart, with a picture and a demo video). */
export interface BenchMember {
  email: string;
  pseudo: string;
  password: string;
}

export async function registerMember(base: URL, root: string, handle: string): Promise<BenchMember> {
  const video = readFileSync(path.join(root, 'command-api/assets/demo/demo-3.mp4'));
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const m = { email: `${handle}@test.fr`, pseudo: handle, password: 'motdepasse1', bio: 'Bench', video_title: 'Vidéo' };
  const form = new FormData();
  for (const [k, v] of Object.entries(m)) form.append(k, v);
  form.append('profilePic', new Blob([png], { type: 'image/png' }), 'p.png');
  form.append('video', new Blob([video], { type: 'video/mp4' }), 'v.mp4');
  const r = await fetch(new URL('/api/auth/register', base), { method: 'POST', body: form });
  if (r.status !== 201) throw new Error(`register: ${r.status} ${await r.text()}`);
  return { email: m.email, pseudo: m.pseudo, password: m.password };
}
