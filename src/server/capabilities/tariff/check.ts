/**
 * `npm run check` rule of the `tariff` capability: the rates entity exists, each `match` names
 * an eq filter of its grid and a field of the entity, each copied pair names number fields of
 * both, and the charge and the factors are number fields of the entity.
 */
import { createFieldCheck, entitiesWithSchema, escape, type CheckRule } from '../../../definitions/check/context.ts';
import type { GridDefinition } from '../../../generated/meta.ts';

const NUMBER = { types: ['integer', 'number'] };

const tariffCheck: CheckRule = {
  name: 'tariff',
  run(ctx) {
    const { report } = ctx;
    const all = [...entitiesWithSchema(ctx)];
    for (const { manifest, file, schema, schemaFile } of all) {
      const spec = manifest.tariff;
      if (!spec) continue;
      const field = createFieldCheck(report, schema, schemaFile);
      field(file, '/tariff/field', spec.field, NUMBER);
      spec.factors.forEach((f, i) => field(file, `/tariff/factors/${i}`, f, NUMBER));
      const rates = all.find((e) => e.manifest.id === spec.rates.entity);
      if (!rates)
        return report(
          file,
          '/tariff/rates/entity',
          `entity "${spec.rates.entity}" does not exist (or has no valid schema)`,
        );
      const grid = rates.gridFile ? ctx.json<GridDefinition>(rates.gridFile) : undefined;
      const filters = new Map((grid?.filters ?? []).map((f) => [f.name, f.kind]));
      for (const [name, pointer] of Object.entries(spec.rates.match)) {
        const at = `/tariff/rates/match/${escape(name)}`;
        if (filters.get(name) !== 'eq')
          report(file, at, `"${name}" is not an eq filter of ${rates.gridFile ?? `${rates.dir}/grid.json`}`);
        field(file, at, pointer, { scalar: true });
      }
      for (const name of Object.keys(spec.rates.where ?? {}))
        if (!filters.has(name))
          report(
            file,
            `/tariff/rates/where/${escape(name)}`,
            `"${name}" is not a filter of ${rates.gridFile ?? 'its grid'}`,
          );
      const rateField = createFieldCheck(report, rates.schema, rates.schemaFile);
      for (const [target, from] of Object.entries(spec.rates.copy)) {
        const at = `/tariff/rates/copy/${escape(target)}`;
        field(file, at, target, NUMBER);
        rateField(file, at, from, NUMBER);
      }
    }
  },
};

export default tariffCheck;
