import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = 'http://localhost:3000';

const proxy = {
  '/api': { target: apiTarget, changeOrigin: false },
  '/uploads': { target: apiTarget, changeOrigin: false },
  '/socket.io': { target: apiTarget, ws: true, changeOrigin: false },
};

export default defineConfig({
  root: webDir,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
  },
  server: { proxy },
  preview: { proxy },
});
