import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLoopbackHost, loadConfig } from '@evo/infra';
import { startServer, type RunningServer, type ServerOptions } from '@evo/server';

export const ASSETS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets');

/** A 1x1 PNG. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
export const demoVideo = () => readFile(path.join(ASSETS, 'demo/demo-3.mp4'));

/**
 * Test files register many members (and ask for many reset links) from one address; the limits'
 * own tests set REGISTER_LIMIT_PER_HOUR and PASSWORD_RESET_LIMIT_PER_HOUR themselves.
 */
const TEST_REGISTER_LIMIT = '100000';

/**
 * argon2id at its least cost (PASSWORD_HASHING=minimal) for the servers the suites start, which
 * register thousands of members (~0.2 s of CPU a hash at the standard cost); the configuration
 * refuses it where other machines reach the server, so those keep the standard cost.
 */
export const testPasswordHashing = (env: Record<string, string | undefined>): Record<string, string> =>
  isLoopbackHost(env.HOST ?? '127.0.0.1') ? { PASSWORD_HASHING: 'minimal' } : {};

/**
 * Environment for a spawned product process on the embedded default: this process's variables
 * without the distributed ones (CI sets REDIS_URL for the Redis adapter suites).
 */
export function embeddedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { REDIS_URL: _r, MONGO_URL: _m, EVENTSTORE_URL: _e, SESSION_SECRET: _s, ...rest } = process.env;
  return {
    ...rest,
    LOG_LEVEL: 'silent',
    REGISTER_LIMIT_PER_HOUR: TEST_REGISTER_LIMIT,
    PASSWORD_RESET_LIMIT_PER_HOUR: TEST_REGISTER_LIMIT,
    ...testPasswordHashing(extra),
    ...extra,
  };
}

export interface TestServer extends RunningServer {
  dataDir: string;
  /**
   * The background jobs done (video processing, erasures) and the read models holding every event
   * so far: what any member's next answer shows. The read models follow the log apart from the
   * requests, and only a member's own writes are waited for by their next read. `jobs: false`
   * leaves the jobs alone (a test that holds some back).
   */
  settle(timeoutMs?: number, options?: { jobs?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

/** A real server on a free port, on a fresh DATA_DIR, without demo data. */
export async function startTestServer(
  env: Record<string, string> = {},
  dataDir?: string,
  webDist?: string,
  options: Pick<ServerOptions, 'projectors'> = {},
): Promise<TestServer> {
  const dir = dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'evo-test-')));
  const config = loadConfig({
    DATA_DIR: dir,
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    REGISTER_LIMIT_PER_HOUR: TEST_REGISTER_LIMIT,
    PASSWORD_RESET_LIMIT_PER_HOUR: TEST_REGISTER_LIMIT,
    ...testPasswordHashing(env),
    ...env,
  });
  const server = await startServer({ config, port: 0, webDist, ...options });
  return {
    ...server,
    dataDir: dir,
    async settle(timeoutMs = 30_000, { jobs = true } = {}) {
      if (jobs) await server.deps.jobs.drain(timeoutMs);
      const last = await server.deps.events.lastPosition();
      if (last !== undefined && !(await server.deps.progress.waitFor(last, timeoutMs)))
        throw new Error(`read models still behind position ${last} after ${timeoutMs} ms`);
    },
    async stop() {
      await server.close();
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A fetch client that keeps its cookie, like one browser. */
export class Client {
  cookie = '';
  constructor(readonly base: string) {}

  async request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const h: Record<string, string> = { ...headers };
    if (this.cookie) h.cookie = this.cookie;
    let payload: RequestInit['body'];
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      h['content-type'] = 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(this.base + url, { method, headers: h, body: payload, redirect: 'manual' });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0].endsWith('=') ? '' : setCookie.split(';')[0];
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return {
      status: res.status,
      headers: res.headers,
      json: json as Record<string, unknown> & { error?: string },
      text,
    };
  }
  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers);
  post = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', url, body, headers);
  put = (url: string, body?: unknown, headers?: Record<string, string>) => this.request('PUT', url, body, headers);
  delete = (url: string, headers?: Record<string, string>) => this.request('DELETE', url, undefined, headers);
}

export interface Registration {
  email: string;
  pseudo: string;
  password: string;
  bio: string;
  video_title: string;
}

let counter = 0;
export function newMember(overrides: Partial<Registration> = {}): Registration {
  const n = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  return {
    email: `m${n}@test.fr`,
    pseudo: `m${n}`,
    password: 'motdepasse1',
    bio: 'Une bio',
    video_title: 'Ma première vidéo',
    ...overrides,
  };
}

export async function registrationForm(
  m: Partial<Registration>,
  files: { picture?: Buffer | null; video?: Buffer | null } = {},
): Promise<FormData> {
  const form = new FormData();
  for (const [k, v] of Object.entries(m)) if (v !== undefined) form.append(k, v);
  const picture = files.picture === undefined ? PNG_1PX : files.picture;
  const video = files.video === undefined ? await demoVideo() : files.video;
  if (picture) form.append('profilePic', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'photo.png');
  if (video) form.append('video', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'clip.mp4');
  return form;
}

/** Register then log in; answers a client holding the member's session. */
export async function registerAndLogin(base: string, overrides: Partial<Registration> = {}) {
  const m = newMember(overrides);
  const c = new Client(base);
  const r = await c.post('/api/auth/register', await registrationForm(m));
  if (r.status !== 201) throw new Error(`register failed: ${r.status} ${r.text}`);
  const l = await c.post('/api/auth/login', { email: m.email, password: m.password });
  if (l.status !== 200) throw new Error(`login failed: ${l.status} ${l.text}`);
  return { client: c, member: m };
}

/** A member as registerAndLogin returns them: their logged-in client and what they registered with. */
export type Member = Awaited<ReturnType<typeof registerAndLogin>>;

/** `count` members registered and logged in one after the other, in that order. */
export async function registerMembers(base: string, count: number): Promise<Member[]> {
  const members: Member[] = [];
  for (let i = 0; i < count; i++) members.push(await registerAndLogin(base));
  return members;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A free TCP port on this machine. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/**
 * The real entry point in a process of its own, as `npm start` runs it (a crash test kills it with
 * SIGKILL), on a DATA_DIR without demo data; resolves once `/ready` answers 200.
 */
export async function spawnEmbeddedServer(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: embeddedEnv({ DATA_DIR: dataDir, PORT: String(port), DEMO_DATA: 'false', LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      if ((await fetch(`${url}/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, output: () => output };
}
