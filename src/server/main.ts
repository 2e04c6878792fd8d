/**
 * `npm start`: serves the API (and the built web app, once it exists) on one port.
 * Configuration comes from the environment; see docs/configuration.md.
 */
import { buildApp, configFromEnv } from './app.ts';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '0.0.0.0';
const app = await buildApp({ ...configFromEnv(), logger: { level: process.env.LOG_LEVEL ?? 'info' } });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
await app.listen({ port, host });
const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
console.log(
  `Portal running at http://${shown}:${port}/ (API health: http://${shown}:${port}/api/health, database: ${app.db.kind})`,
);
