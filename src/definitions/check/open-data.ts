/**
 * `npm run check` rule for the open-data catalogue (`schemas/_opendata/<code>.json`): valid
 * against its meta-schema, named by its code, its texts i18n keys; the source entity exists
 * and is a public registry; every column and sort field is a scalar field of it (or a system
 * field); every fixed filter is a filter of the source's grid.
 */
import type { GridDefinition, OpenDataset } from '../../generated/meta.ts';
import { isSystemPointer, resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { META_FOR, type CheckRule } from './context.ts';

/** Open datasets: names, texts, a public source, scalar columns, the grid's filters. */
export const openDataRule: CheckRule = {
  name: 'open data',
  run(ctx) {
    const { report, useKey } = ctx;
    for (const file of ctx.filesIn(/^schemas\/_opendata\/[^/]+$/)) {
      if (!ctx.metaValid(file, META_FOR.openData)) continue;
      const dataset = ctx.json<OpenDataset>(file);
      if (file !== `schemas/_opendata/${dataset.code}.json`)
        report(file, '/code', `code "${dataset.code}" must equal the file name`);
      useKey(file, '/titleKey', dataset.titleKey);
      useKey(file, '/descriptionKey', dataset.descriptionKey);
      // The catalogue shows the frequency in the visitor's language.
      useKey(file, '/updateFrequency', `openData.frequency.${dataset.updateFrequency}`);
      const source = ctx.entities.get(dataset.entity);
      if (!source) {
        report(file, '/entity', `entity "${dataset.entity}" does not exist`);
        continue;
      }
      // Downloads are for anyone: a source whose rows are not public would publish nothing (or too much).
      if (!source.manifest.publicRead)
        report(file, '/entity', `entity "${dataset.entity}" is not a public registry (publicRead)`);
      const fieldOk = (pointer: string, at: string) => {
        const target = source.schema ? resolveFieldSchema(source.schema, pointer) : undefined;
        const type = target ? scalarType(target) : undefined;
        if (!isSystemPointer(pointer) && (!type || type === 'object' || type === 'array'))
          report(file, at, `"${pointer}" is not a scalar field of ${dataset.entity}`);
      };
      dataset.fields.forEach((f, i) => fieldOk(f.field, `/fields/${i}/field`));
      dataset.sort?.forEach((f, i) => fieldOk(f.field, `/sort/${i}/field`));
      // Fixed filters are list-search query values: each must be one of the source grid's filters.
      const gridFile = `schemas/${dataset.entity}/${source.manifest.grid}`;
      const gridFilters = ctx.sources.has(gridFile)
        ? ctx.json<GridDefinition>(gridFile).filters.flatMap((g) => [g.name, `${g.name}From`, `${g.name}To`])
        : [];
      for (const name of Object.keys(dataset.filters ?? {})) {
        if (!gridFilters.includes(name)) report(file, `/filters/${name}`, `"${name}" is not a filter of ${gridFile}`);
      }
    }
  },
};
