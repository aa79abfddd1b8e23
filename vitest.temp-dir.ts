import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The whole run's temporary files in one folder, removed when the run ends. Vitest stops its test
 * processes with SIGTERM, so their own `exit` handlers (the temporary read-model files' removal) never
 * run: without this, every run left hundreds of megabytes behind, and CI's disk filled. The test
 * processes, and the servers they start, inherit TMPDIR, which `os.tmpdir()` reads
 * (`vitest.temp-dir-per-file.ts` then gives each test file a folder of its own inside it).
 */
export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'evo-test-run-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
