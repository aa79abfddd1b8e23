// What the test servers built from Go modules share (FerretDB, MinIO): the binary built once by
// tools/<tool>/build.sh, the server's last output kept for the error that says why it did not
// start, and a stop that waits for the process to end.
import { spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The binary of `tools/<tool>/build.sh`, built on first use (the script prints its path last).
 * Throws with the build's output when it cannot be built.
 */
export function builtOnFirstUse(tool: string, label: string, timeoutMs: number): () => string {
  let built: string | undefined;
  return () => {
    if (built) return built;
    const result = spawnSync('bash', [path.join(repoRoot, `tools/${tool}/build.sh`)], {
      encoding: 'utf8',
      timeout: timeoutMs,
    });
    if (result.status !== 0) {
      const why = result.status === 3 ? 'Go is not installed' : `tools/${tool}/build.sh failed (${result.status})`;
      throw new Error(`${label}: ${why}\n${result.stderr ?? ''}`);
    }
    built = result.stdout.trim().split('\n').pop()!;
    return built;
  };
}

export function goInstalled(): boolean {
  return spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
}

/** The last 8,000 characters the server wrote (stdout and stderr), for an error. */
export function lastOutputOf(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return () => output;
}

/** Ends the server: SIGTERM, SIGKILL if it is still there 5 s later. */
export async function endServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
}
