// Before `npm start`: build the web app when web/dist is missing or older than its sources.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'web/dist/index.html');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * One build at a time: test files started together (two vitest workers, two worktrees' suites on
 * one checkout) would otherwise empty web/dist under each other, or start a server while the
 * compressed files are still being written. The lock names its process: a lock whose process is
 * gone (a build stopped by Ctrl-C), or older than ten minutes, is taken over.
 */
const lock = path.join(root, '.cache/web-build.lock');
function acquire() {
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      return;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (abandoned()) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
}

function abandoned() {
  try {
    if (Date.now() - statSync(lock).mtimeMs > 10 * 60_000) return true;
    const pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
    process.kill(pid, 0); // throws when no such process
    return false;
  } catch (e) {
    // no pid file yet (just created), or the lock released meanwhile: not abandoned
    return e.code === 'ESRCH';
  }
}

function stale() {
  const sources = Math.max(
    newest(path.join(root, 'web/src')),
    // the web app compiles against the contracts package too
    newest(path.join(root, 'contracts/src')),
    statSync(path.join(root, 'web/index.html')).mtimeMs,
    statSync(path.join(root, 'web/vite.config.ts')).mtimeMs,
  );
  return !existsSync(built) || statSync(built).mtimeMs < sources;
}

// checked under the lock: a build under way has written index.html before its compressed files
acquire();
try {
  if (stale()) {
    console.log('Construction de l’application web…');
    // a production build even when started from the tests (vitest sets NODE_ENV=test)
    execSync('npm run build:web', { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}
