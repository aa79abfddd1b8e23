// Before `npm start`: the server's TypeScript (server/src/main.ts and the workspace packages
// it imports) bundled, .cache/server/main.mjs, so that a start does not transpile and
// resolve some 150 modules through tsx's loader (about 0.5 s of every start). The embedded
// projections' thread (server/src/projections-thread.ts) is a bundle of its own beside it,
// projections-thread.mjs, which main.ts starts as a worker before it imports the rest of the server
// (a chunk beside them). Rebuilt at every
// `npm start` (esbuild takes a fraction of a second), so it is never older than the sources; the
// packages of node_modules stay outside it, loaded by Node as usual.
import { build } from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE = path.join(root, '.cache/server/main.mjs');

/**
 * `outfile` must be inside the repository: the bundle imports the packages of its node_modules.
 * The thread's bundle and the chunks go beside it.
 */
export async function buildServer(outfile = SERVER_BUNDLE) {
  // the chunks of an earlier build (their names change with their content)
  const outdir = path.dirname(outfile);
  if (existsSync(outdir))
    for (const f of readdirSync(outdir)) if (/-[A-Z0-9]{8}\.mjs(\.map)?$/.test(f)) rmSync(path.join(outdir, f));
  const common = {
    outdir,
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
  };
  await Promise.all([
    // what main.ts imports once it has started the projections' thread is a chunk of its own,
    // loaded then; beside the entries, so that the paths the code makes from import.meta.url
    // (the thread's module) are the same from every file
    build({
      ...common,
      entryPoints: { [path.basename(outfile, '.mjs')]: path.join(root, 'server/src/main.ts') },
      splitting: true,
      chunkNames: '[name]-[hash]',
    }),
    // the thread's bundle shares no chunk with the server's: it loads only the code it runs
    build({ ...common, entryPoints: { 'projections-thread': path.join(root, 'server/src/projections-thread.ts') } }),
  ]);
}

// node scripts/build-server.mjs [outfile]
if (process.argv[1] === import.meta.filename) await buildServer(process.argv[2] && path.resolve(process.argv[2]));
