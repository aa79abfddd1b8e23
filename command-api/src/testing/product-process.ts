import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedEnv } from './test-server';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

let bundle: string | undefined;

/**
 * The server bundle `npm start` runs (scripts/build-server.mjs), built from the sources once per
 * test process into a file of its own (inside the repository, so that it finds node_modules).
 */
function serverBundle(): string {
  if (bundle) return bundle;
  const dir = path.join(ROOT, '.cache', 'server-test', String(process.pid));
  const out = path.join(dir, 'main.mjs');
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs'), out], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the server bundle did not build (scripts/build-server.mjs)');
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  bundle = out;
  return bundle;
}

/** The product as `npm start` runs it (the bundle of server/src/main.ts), its output kept in `output`. */
export interface ProductProcess {
  child: ChildProcess;
  /** stdout and stderr so far */
  output(): string;
  /** resolves with the exit code (or the signal) once the process ended */
  exited: Promise<number | NodeJS.Signals | null>;
  stop(): Promise<void>;
}

export function spawnProduct(env: Record<string, string>): ProductProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', serverBundle()], {
    cwd: ROOT,
    env: embeddedEnv({ DEMO_DATA: 'false', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return {
    child,
    output: () => out,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits for GET /ready to answer 200 (or the process to die, which fails with its output). */
export async function waitReady(base: string, product?: ProductProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (product && (product.child.exitCode !== null || product.child.signalCode !== null)) {
      throw new Error(`the product exited: ${product.output()}`);
    }
    try {
      const r = await fetch(`${base}/ready`);
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
}
