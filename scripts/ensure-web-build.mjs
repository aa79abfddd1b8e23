// Before `npm start`: build the web app when web/dist is missing or older than its sources.
import { existsSync, statSync, readdirSync } from 'node:fs';
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

const sources = Math.max(
  newest(path.join(root, 'web/src')),
  // the web app compiles against the contracts package too
  newest(path.join(root, 'contracts/src')),
  statSync(path.join(root, 'web/index.html')).mtimeMs,
  statSync(path.join(root, 'web/vite.config.ts')).mtimeMs,
);
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  console.log('Construction de l’application web…');
  // a production build even when started from the tests (vitest sets NODE_ENV=test)
  execSync('npm run build:web', { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
