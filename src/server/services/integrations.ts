import fp from 'fastify-plugin';
import { INTEGRATION_AUDIT_TABLES } from '../integrations/audit.ts';
import { createIntegrationPlatform, type IntegrationPlatform } from '../integrations/platform.ts';
import { startSandbox, type Sandbox } from '../integrations/sandbox.ts';

/** The call audit (append-only). */
export const migrations = [INTEGRATION_AUDIT_TABLES];

declare module 'fastify' {
  interface FastifyInstance {
    /** The integration platform (integrations/platform.ts): other agencies' methods, called through one door. */
    integrations: IntegrationPlatform;
    /** The sandbox upstream when it runs (INTEGRATIONS=sandbox, `integrationSandbox`). */
    integrationSandbox: Sandbox | undefined;
  }
}

/**
 * The integration platform of schemas/_integrations: with INTEGRATIONS=sandbox (the option
 * `integrationSandbox`) the sandbox upstream starts on loopback first and answers every agency
 * that has no INTEGRATION_<AGENCY>_URL of its own. Registered before the store: a remote
 * source (manifest `remoteSource`) asks an agency through it. The rate limiter and the store it
 * uses are looked up at call time.
 */
export default fp(
  async (app) => {
    const sandbox = app.config.integrationSandbox ? await startSandbox(app.definitions.integrations) : undefined;
    app.decorate('integrationSandbox', sandbox);
    if (sandbox) {
      app.log.info({ url: sandbox.url }, 'integration sandbox upstream started');
      app.addHook('onClose', async () => sandbox.close());
    }
    app.decorate(
      'integrations',
      createIntegrationPlatform({
        registry: app.definitions,
        env: app.config.integrationEnv ?? {},
        sandboxUrl: sandbox?.url,
        overrides: app.config.integrationOverrides,
        query: (sql, params) => app.db.query(sql, params),
        countRequest: (key) => app.countRequest(key),
        checkRecord: async (entity, id, actor) => {
          await app.store.get(entity, id, actor);
        },
        warn: (data, message) => app.log.warn(data, message),
      }),
    );
  },
  { name: 'integrations', dependencies: ['db'] },
);
