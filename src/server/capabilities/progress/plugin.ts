import type { FastifyPluginAsync } from 'fastify';
import { addWriteStep } from '../../store/computed-writes.ts';
import type { CapabilityOptions } from '../registry.ts';

/**
 * done / plan × 100 with 1 decimal; null when the plan is not a positive number or done is
 * not a number.
 * @example progressPercent(45, 60) // 75
 */
export function progressPercent(done: unknown, plan: unknown): number | null {
  if (typeof done !== 'number' || typeof plan !== 'number' || !(plan > 0)) return null;
  return Math.round((done / plan) * 1000) / 10;
}

/**
 * Entities whose manifest declares `progress`: before every create and update the server
 * writes the percentage done of the plan into the declared field, whatever the client sent
 * for it (absent while it cannot be computed), and with `yearStart` the first day of the
 * record's year, which a dashboard's year period filters on.
 */
const progress: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const spec = def.manifest.progress!;
    const [field, done, plan] = [spec.field, spec.done, spec.plan].map((p) => p.slice(1)) as [string, string, string];
    addWriteStep(app.store, def.id, def.manifest.subject, async (data) => {
      const out = { ...data };
      const percent = progressPercent(data[done], data[plan]);
      if (percent === null) delete out[field];
      else out[field] = percent;
      if (spec.yearStart) {
        const year = data[spec.yearStart.year.slice(1)];
        const target = spec.yearStart.field.slice(1);
        if (Number.isInteger(year) && (year as number) > 0) out[target] = `${String(year).padStart(4, '0')}-01-01`;
        else delete out[target];
      }
      return out;
    });
  }
};

export default progress;
