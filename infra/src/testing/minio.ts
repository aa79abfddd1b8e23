// An S3-compatible server for tests: MinIO built from the Go module proxy by tools/minio/build.sh
// (github.com/minio/minio at the pseudo-version below; nothing of it committed), started on
// 127.0.0.1 only, on a free port, with a temp directory of its own. Off CI, a machine without Go is
// a printed reason to skip; on CI (CI=true) a MinIO that cannot be built or started fails the run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import type { S3Settings } from '../config/config';
import { freePort } from './ferretdb';
import { builtOnFirstUse, endServer, goInstalled, lastOutputOf, repoRoot } from './go-servers';

export const MINIO_VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';

export interface S3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  port: number;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** the S3_* variables for a bucket of this server (made by EVO at start when missing) */
  env(bucket: string): Record<string, string>;
  /** the settings of a file store on a bucket of this server (through `endpoint`, a proxy, when given) */
  settings(bucket: string, endpoint?: string): S3Settings;
  stop(): Promise<void>;
}

/** The MinIO binary, built on first use. Throws with the build's output when it cannot be built. */
export const minioBinary = builtOnFirstUse('minio', `MinIO ${MINIO_VERSION}`, 30 * 60_000);

export type S3Availability = { ok: true } | { ok: false; reason: string };

/** Whether a MinIO of our own can be had here; on CI always (it must). */
export function s3ServerAvailability(): S3Availability {
  if (process.env.CI === 'true') return { ok: true };
  const prebuilt = process.env.MINIO_BIN ?? path.join(repoRoot, `.cache/minio/minio-${MINIO_VERSION}`);
  if (existsSync(prebuilt) || goInstalled()) return { ok: true };
  return { ok: false, reason: `no Go to build MinIO ${MINIO_VERSION}` };
}

/** Starts a MinIO of its own on 127.0.0.1; `stop()` ends it and removes its directory. */
export async function startMinio(): Promise<S3Server> {
  const binary = minioBinary();
  const [port, consolePort] = [await freePort(), await freePort()];
  const dir = mkdtempSync(path.join(tmpdir(), 'evo-minio-'));
  const accessKeyId = `evo${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(18).toString('hex');
  const child = spawn(
    binary,
    ['server', '--quiet', '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`, dir],
    {
      env: {
        ...process.env,
        MINIO_ROOT_USER: accessKeyId,
        MINIO_ROOT_PASSWORD: secretAccessKey,
        MINIO_BROWSER: 'off',
        MINIO_UPDATE: 'off',
        MINIO_CI_CD: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = lastOutputOf(child);
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`MinIO exited (${child.exitCode}) before answering:\n${output()}`);
    }
    const live = await fetch(`${endpoint}/minio/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (live) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`MinIO did not answer within 60 s:\n${output()}`);
    }
    await sleep(100);
  }
  let stopped: Promise<void> | undefined;
  const region = 'us-east-1';
  return {
    endpoint,
    port,
    accessKeyId,
    secretAccessKey,
    region,
    settings: (bucket, through = endpoint) => ({
      endpoint: through,
      bucket,
      accessKeyId,
      secretAccessKey,
      region,
      forcePathStyle: true,
    }),
    env: (bucket) => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
    }),
    stop: () =>
      (stopped ??= (async () => {
        await endServer(child);
        rmSync(dir, { recursive: true, force: true });
      })()),
  };
}
