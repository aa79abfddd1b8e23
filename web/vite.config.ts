import { createReadStream, readdirSync, statSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
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

export default defineConfig({
  root: webDir,
  plugins: [react(), mediapipeFaceMesh()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
  },
  server: { proxy },
  preview: { proxy },
});
