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
