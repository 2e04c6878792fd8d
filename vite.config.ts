import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The web app's build: `index.html` → `dist/web`, served by the API server on the same
 * port. Every route is a lazy chunk; ag-grid, rjsf and apexcharts land only in the chunks
 * of the screen kinds that use them.
 */
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/web', emptyOutDir: true, sourcemap: false, manifest: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': 'http://localhost:8080', '/gs-guide-websocket': { target: 'ws://localhost:8080', ws: true } } },
});
