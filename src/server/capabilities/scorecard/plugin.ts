import type { FastifyPluginAsync } from 'fastify';
import { parsePeriod } from '../../../shared/periods.ts';
import { badInput } from '../../errors.ts';
import { createServerAjv } from '../../validation.ts';
import { resolveFieldSchema } from '../../../shared/field-schema.ts';
import { addWriteStep } from '../../store/computed-writes.ts';
import type { CapabilityOptions } from '../registry.ts';
import { derivedAreaPoints, resolveAggregate } from './derive.ts';
import { scoreAreas, withScore, type Scorecard } from './score.ts';

const top = (pointer: string): string => pointer.slice(1);

/**
 * Entities whose manifest declares `scorecard`: before every create and update the server
 * fills the record's areas, total, maximum, percentage and band (score.ts), the derived areas'
 * points from the aggregates they name, asked for the record's unit and period as the server
 * itself (derive.ts). The client's values for those fields are ignored; entered points
 * outside 0…maxPoints are refused (400 naming the area). A record whose status the edit rules
 * close stays as it is: the store refuses the update before anything is written.
 */
const scorecard: FastifyPluginAsync<CapabilityOptions> = async (app, { entities }) => {
  for (const def of entities) {
    const card = def.manifest.scorecard as Scorecard;
    const ajv = createServerAjv();
    const fieldValidator = (pointer: string) => {
      const schema = resolveFieldSchema(def.schema, pointer);
      return schema ? ajv.compile(schema) : () => false;
    };
    const [validUnit, validPeriod] = [fieldValidator(card.fields.unit), fieldValidator(card.fields.period)];
    const targets = new Map(
      card.areas.flatMap((area) => {
        const target = area.derived && resolveAggregate(app.definitions.entities.values(), area.derived.aggregate);
        return target ? [[area.code, target] as const] : [];
      }),
    );
    addWriteStep(app.store, def.id, def.manifest.subject, async (data) => {
      const unit = data[top(card.fields.unit)];
      const periodText = data[top(card.fields.period)];
      const period = validPeriod(periodText) ? parsePeriod(periodText as string) : undefined;
      const derived = new Map<string, number | null>();
      // A unit or period that is missing or of the wrong shape is named by the store's
      // validation; nothing is asked of the other entities with it.
      if (validUnit(unit) && period) {
        for (const area of card.areas) {
          const target = targets.get(area.code);
          if (area.derived && target)
            derived.set(area.code, await derivedAreaPoints(app, target, area.maxPoints, area.derived, unit, period));
        }
      }
      const { result, problems } = scoreAreas(
        card,
        card.fields.entered ? data[top(card.fields.entered)] : undefined,
        derived,
        data,
      );
      if (problems.length) throw badInput(problems);
      return withScore(card, data, result, period?.from);
    });
  }
};

export default scorecard;
