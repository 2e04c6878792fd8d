import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * Manifests and screens are bundled eagerly (every route and menu needs them), but their
 * `description` is prose for analysts that no screen shows: dropped from the client bundle so
 * the first visit does not grow with each documented definition. The server reads the files
 * themselves and keeps it.
 */
function stripDefinitionDescriptions(): Plugin {
  const eager = /\/(schemas\/[a-z][a-z0-9-]*\/entity|screens\/[a-z][a-z0-9-]*)\.json$/;
  return {
    name: 'strip-definition-descriptions',
    enforce: 'pre',
    transform(code, id) {
      if (!eager.test(id.split('?')[0]!)) return null;
      const { description: _prose, ...rest } = JSON.parse(code) as Record<string, unknown>;
      return { code: JSON.stringify(rest), map: null };
    },
  };
}

/**
 * The web app's build: `index.html` → `dist/web`, served by the API server on the same
 * port. Every route is a lazy chunk; ag-grid, rjsf and apexcharts land only in the chunks
 * of the screen kinds that use them.
 */
export default defineConfig({
  plugins: [stripDefinitionDescriptions(), react()],
  build: { outDir: 'dist/web', emptyOutDir: true, sourcemap: false, manifest: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': 'http://localhost:8080', '/gs-guide-websocket': { target: 'ws://localhost:8080', ws: true } } },
});
