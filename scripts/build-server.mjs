// Before `npm start`: the server's TypeScript (server/src/main.ts and the workspace packages
// it imports) as one ES module, .cache/server/main.mjs, so that a start does not transpile and
// resolve some 150 modules through tsx's loader (about 0.5 s of every start). The embedded
// projections' thread (server/src/projections-thread.ts) is a second entry, projections-thread.mjs
// beside it, which the server starts as a worker. Rebuilt at every
// `npm start` (esbuild takes a fraction of a second), so it is never older than the sources; the
// packages of node_modules stay outside it, loaded by Node as usual.
import { build } from 'esbuild';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE = path.join(root, '.cache/server/main.mjs');

/**
 * `outfile` must be inside the repository: the bundle imports the packages of its node_modules.
 * The thread's bundle goes beside it.
 */
export async function buildServer(outfile = SERVER_BUNDLE) {
  await build({
    entryPoints: {
      [path.basename(outfile, '.mjs')]: path.join(root, 'server/src/main.ts'),
      'projections-thread': path.join(root, 'server/src/projections-thread.ts'),
    },
    outdir: path.dirname(outfile),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'workspace-only',
        setup(b) {
          // the workspace packages (@evo/*) are bundled; every other package is imported at run time
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@evo/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
}

// node scripts/build-server.mjs [outfile]
if (process.argv[1] === import.meta.filename) await buildServer(process.argv[2] && path.resolve(process.argv[2]));
