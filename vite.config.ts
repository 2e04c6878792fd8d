import { defineConfig } from 'vite';

/**
 * The web app's build. The React engine (issue #3) adds its entry and plugins here; the
 * server serves `dist/web` from the same port as the API.
 */
export default defineConfig({
  build: { outDir: 'dist/web', emptyOutDir: true },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
