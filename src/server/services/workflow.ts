import fp from 'fastify-plugin';
import { createWorkflowEngine } from '../workflow/transition.ts';
import { WORKFLOW_HISTORY_TABLES } from '../workflow/history.ts';
import type { WorkflowEngine } from '../workflow/workflow-engine.ts';

/** The status changes' history. */
export const migrations = [WORKFLOW_HISTORY_TABLES];

declare module 'fastify' {
  interface FastifyInstance {
    /** The status machines (workflow/transition.ts): what a record's status allows, and the one way to change it. */
    workflow: WorkflowEngine;
  }
}

/**
 * The workflow engine for every entity whose manifest names a `workflow` (its routes are
 * routes/workflow.ts), and the deadline sweep, every `sweepIntervalMs`
 * (WORKFLOW_SWEEP_INTERVAL_MS), also `app.workflow.sweep()`.
 */
export default fp(
  async (app) => {
    const engine = createWorkflowEngine(app.db, app.definitions, app.store, {
      now: app.config.clock,
      tables: app.tables,
      staff: app.staffDirectory,
      notify: {
        sender: app.notify.sender,
        translator: app.translator,
        onQueued: () => app.notify.worker.kick(),
        inApp: app.notify.inbox,
      },
      log: (error, what) => app.log.warn({ err: error }, what),
    });
    app.decorate('workflow', engine);
    // The deadline sweep: deadlines live in the records (due_at), so a periodic query is all
    // it takes — nothing is held in memory, and a restart loses nothing.
    let sweepTimer: NodeJS.Timeout | undefined;
    let sweeping: Promise<unknown> | undefined;
    const sweepInterval = app.config.sweepIntervalMs ?? 0;
    app.addHook('onReady', async () => {
      if (sweepInterval <= 0) return;
      sweepTimer = setInterval(() => {
        sweeping ??= engine
          .sweep()
          .catch((error: unknown) => app.log.error({ err: error }, 'deadline sweep failed'))
          .finally(() => (sweeping = undefined));
      }, sweepInterval);
      sweepTimer.unref();
    });
    app.addHook('onClose', async () => {
      if (sweepTimer) clearInterval(sweepTimer);
      await sweeping;
    });
  },
  { name: 'workflow', dependencies: ['store', 'notify'] },
);
