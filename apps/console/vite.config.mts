import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Static files only: the platform serves them at /console (libs/http, console.setup.ts) and the
// app talks to the public API on the same origin. `npm start` and `npm test` build it when its
// sources are newer than dist/ (scripts/lib/console-build.mjs).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Not "assets": /console/assets/… is the gallery's route.
    assetsDir: 'static',
  },
  // `npx vite apps/console` during development: the API of a local `npm start`.
  server: { proxy: { '/v1': 'http://127.0.0.1:8080' } },
});
