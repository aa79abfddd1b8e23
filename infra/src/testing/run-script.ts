import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from './go-servers';

/**
 * Runs a TypeScript script of the repository (`path` from its root) as an operator runs a command,
 * through tsx directly (npm run would leave the tsx process behind a kill of npm). Resolves with
 * its exit code (-1 when a signal ended it) and its output, stdout and stderr as they came;
 * `started` is given the process and its output so far, to stop it midway.
 */
export function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  started?: (child: ChildProcess, out: () => string) => void,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? -1 : null), out }));
    started?.(child, () => out);
  });
}

/** A script started by `startScript`, running until it exits or is killed. */
export interface RunningScript {
  readonly child: ChildProcess;
  /** its stdout so far */
  out(): string;
  /** its stderr so far */
  err(): string;
  /** the signal that ended it, null when it exited by itself */
  readonly exited: Promise<NodeJS.Signals | null>;
}

/**
 * Starts a TypeScript script through tsx, as `runScript` does but without waiting for its end: for
 * a test that kills it midway (kill -9) or reads what it printed while it runs.
 */
export function startScript(script: string, args: string[]): RunningScript {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
  return { child, exited, out: () => out, err: () => err };
}
