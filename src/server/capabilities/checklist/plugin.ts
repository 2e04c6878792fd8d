import type { FastifyPluginAsync } from 'fastify';
import { setAt, valueAt } from '../../../shared/pointer.ts';
import { badInput } from '../../errors.ts';
import { addWriteStep } from '../../store/computed-writes.ts';
import type { CapabilityOptions } from '../registry.ts';
import { evaluateChecklist, type Checklist } from './evaluate.ts';

/** Removes the value at a pointer (a top-level or nested field), leaving its holder. */
function removeAt(data: Record<string, unknown>, pointer: string): void {
  const cut = pointer.lastIndexOf('/');
  const holder = cut > 0 ? valueAt(data, pointer.slice(0, cut)) : data;
  if (holder && typeof holder === 'object') delete (holder as Record<string, unknown>)[pointer.slice(cut + 1)];
}

/**
 * Entities whose manifest declares `checklist`: before every create and update the server
 * refuses a check marked conform whose measured value breaks a rule (400 naming the check, with
 * the rule's own message), then writes the overall result and the number of non-conform checks,
 * whatever the client sent for them.
 */
const checklist: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const spec = def.manifest.checklist as Checklist;
    addWriteStep(app.store, def.id, def.manifest.subject, async (data) => {
      const { problems, result, nonConformCount } = evaluateChecklist(spec, data);
      if (problems.length) throw badInput(problems);
      const out = structuredClone(data);
      if (result === undefined) removeAt(out, spec.result);
      else setAt(out, spec.result, result);
      if (spec.nonConformCount) setAt(out, spec.nonConformCount, nonConformCount);
      return out;
    });
  }
};

export default checklist;
