import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * Each test file's temporary files in a folder of its own, removed when the file ends (hooks run in
 * reverse order, so after the file's own): a run's disk use stays that of the files running at once,
 * not the sum of all. What a still-running child writes late goes with the run's folder.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'file-'));
process.env.TMPDIR = dir;
afterAll(() => {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // removed with the run's folder (vitest.temp-dir.ts)
  }
});
