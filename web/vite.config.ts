import { createReadStream, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = 'http://localhost:3000';

const proxy = {
  '/api': { target: apiTarget, changeOrigin: false },
  '/uploads': { target: apiTarget, changeOrigin: false },
  '/socket.io': { target: apiTarget, ws: true, changeOrigin: false },
};

/** URL folder under which the app serves MediaPipe Face Mesh's own files (no CDN). */
const FACE_MESH_URL = '/mediapipe/face_mesh/';
const FACE_MESH_FILE = /\.(?:js|wasm|data|tflite|binarypb)$/;
const FACE_MESH_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  wasm: 'application/wasm',
};

/**
 * Serves node_modules/@mediapipe/face_mesh/{*.js,*.wasm,*.data,*.tflite,*.binarypb}
 * at /mediapipe/face_mesh/<file>: copied into the build output, and answered by a
 * dev-server middleware. The recorder (src/recorder/faceMesh.ts) loads them on /create only.
 */
function mediapipeFaceMesh(): Plugin {
  const packageDir = dirname(createRequire(import.meta.url).resolve('@mediapipe/face_mesh/package.json'));
  const files = readdirSync(packageDir).filter((file) => FACE_MESH_FILE.test(file));
  let outDir = '';
  return {
    name: 'evo:mediapipe-face-mesh',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use(FACE_MESH_URL, (req, res, next) => {
        const name = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname.slice(1));
        if (req.method !== 'GET' && req.method !== 'HEAD') return next();
        if (!files.includes(name)) {
          res.statusCode = 404; // not the SPA's index.html
          return res.end();
        }
        const file = join(packageDir, name);
        res.setHeader('Content-Type', FACE_MESH_TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream');
        res.setHeader('Content-Length', String(statSync(file).size));
        res.setHeader('Cache-Control', 'no-cache');
        if (req.method === 'HEAD') return res.end();
        createReadStream(file).on('error', next).pipe(res);
      });
    },
    async writeBundle() {
      const target = join(outDir, FACE_MESH_URL);
      await mkdir(target, { recursive: true });
      await Promise.all(files.map((file) => copyFile(join(packageDir, file), join(target, file))));
    },
  };
}

/** files worth compressing (text, WebAssembly, MediaPipe's packed data); images and videos are not */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|wasm|data|binarypb)$/;

/**
 * Writes `<file>.br` (Brotli, quality 11; 9 above 1 MB, for MediaPipe's WebAssembly: 11
 * takes half a minute a file there for an eighth less) and `<file>.gz` (gzip, level 9) beside every compressible file of the build, once, so that the server sends them as they are
 * (command-api/src/web-app.ts) instead of compressing at each request. A variant that saves less
 * than a tenth is not written.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let outDir = '';
  async function* walk(dir: string): AsyncGenerator<string> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(file);
      else if (COMPRESSIBLE.test(entry.name)) yield file;
    }
  }
  return {
    name: 'evo:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // after every writeBundle (MediaPipe's files are copied there)
    async closeBundle() {
      const jobs: Promise<void>[] = [];
      for await (const file of walk(outDir)) {
        jobs.push(
          readFile(file).then(async (raw) => {
            const variants: Array<[string, Buffer]> = [
              [
                'br',
                await brotli(raw, {
                  params: {
                    [zlib.BROTLI_PARAM_QUALITY]: raw.length > 1 << 20 ? 9 : 11,
                    [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
                  },
                }),
              ],
              ['gz', await gz(raw, { level: 9 })],
            ];
            for (const [ext, packed] of variants)
              if (packed.length < raw.length * 0.9) await writeFile(`${file}.${ext}`, packed);
          }),
        );
      }
      await Promise.all(jobs);
    },
  };
}

/**
 * The built page's stylesheet stays first in <head> (the screens' own stylesheets, inserted after
 * it when their code loads, must come after it in the cascade) but does not hold back the first
 * paint: it is fetched as `media="print"`, and src/main.tsx switches it on, once loaded, before it
 * renders the app. The shell (styled inline in index.html) paints as soon as the HTML arrives.
 */
function stylesheetAfterShell(): Plugin {
  return {
    name: 'evo:stylesheet-after-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        return html.replace(/<link rel="stylesheet"([^>]*)>/g, '<link rel="stylesheet" media="print" data-app-css$1>');
      },
    },
  };
}

export default defineConfig({
  root: webDir,
  plugins: [react(), mediapipeFaceMesh(), stylesheetAfterShell(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
  },
  server: { proxy },
  preview: { proxy },
});
