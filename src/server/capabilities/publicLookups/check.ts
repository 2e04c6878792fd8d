/**
 * `npm run check` rule of the `publicLookups` capability: lookup names are unique within an
 * entity (each is a route), and every field a lookup reads exists in the record schema — the
 * parameters' and the sort field scalar (they get a column and an index), the fixed
 * conditions', the returned ones and the counted ones; a `field` counter names its field; a
 * parameter has a field or is the reference number (publicSubmit entities only); `needsOneOf`
 * names optional parameters.
 */
import { createFieldCheck, entitiesWithSchema, type CheckRule } from '../../../definitions/check/context.ts';

const publicLookupsCheck: CheckRule = {
  name: 'public lookups',
  run(ctx) {
    const { report } = ctx;
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      if (!manifest.publicLookups) continue;
      const field = createFieldCheck(report, schema, schemaFile);
      const names = new Set<string>();
      manifest.publicLookups.forEach((lookup, i) => {
        const at = `/publicLookups/${i}`;
        if (names.has(lookup.name)) report(file, `${at}/name`, `lookup "${lookup.name}" is declared twice`);
        names.add(lookup.name);
        const params = new Set(lookup.by.map((b) => b.param));
        lookup.by.forEach((b, j) => {
          if (b.field && b.reference)
            report(file, `${at}/by/${j}`, `parameter "${b.param}" names a field and the reference number: keep one`);
          else if (b.field) field(file, `${at}/by/${j}/field`, b.field, { scalar: true });
          else if (!b.reference)
            report(file, `${at}/by/${j}`, `parameter "${b.param}" needs a field (or "reference": true)`);
          else if (!manifest.publicSubmit)
            report(file, `${at}/by/${j}/reference`, 'only an entity with publicSubmit has reference numbers');
        });
        lookup.needsOneOf?.forEach((name, j) => {
          const b = lookup.by.find((x) => x.param === name);
          if (!params.has(name)) report(file, `${at}/needsOneOf/${j}`, `"${name}" is not a parameter of this lookup`);
          else if (!b?.optional) report(file, `${at}/needsOneOf/${j}`, `parameter "${name}" must be "optional": true`);
        });
        lookup.where?.forEach((w, j) => field(file, `${at}/where/${j}/field`, w.field, { scalar: true }));
        lookup.returns.forEach((r, j) => {
          if (r.field) field(file, `${at}/returns/${j}/field`, r.field);
          r.fields?.forEach((p, k) => field(file, `${at}/returns/${j}/fields/${k}`, p));
        });
        if (lookup.sort) field(file, `${at}/sort/field`, lookup.sort.field, { scalar: true });
        lookup.stats?.forEach((s, j) => {
          if (s.field) field(file, `${at}/stats/${j}/field`, s.field, { scalar: true });
          else if (s.source === 'field') report(file, `${at}/stats/${j}`, `counter "${s.name}" (field) needs a field`);
        });
      });
    }
  },
};

export default publicLookupsCheck;
