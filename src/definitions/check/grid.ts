/**
 * `npm run check` rule for list grids (`schemas/<entity>/grid.json`): valid against the grid
 * meta-schema; column formats and filter kinds are entries of their registries
 * (`src/shared/cell-formats.ts`, `src/shared/filter-kinds.ts`); columns, default sort and
 * filters name fields of the record schema (scalar where sorted or filtered, of the filter
 * kind's type); reference lists exist and are the ones the schema's fields declare; filter names
 * are unique and parent filters exist; a keyword filter has keyword fields to search; the
 * parameters of a remote source are eq filters of the grid; at most four filters are shown in the
 * bar (keyword and `primary`).
 */
import type { JSONSchema7 } from 'json-schema';
import type { GridDefinition } from '../../generated/meta.ts';
import { resolveFieldSchema } from '../../shared/field-schema.ts';
import { CELL_FORMATS } from '../../shared/cell-formats.ts';
import { statesKeyOf } from '../../shared/format.ts';
import { FILTER_KINDS } from '../../shared/filter-kinds.ts';
import { MAX_SHOWN_FILTERS, markedFilters } from '../../shared/filter-bar.ts';
import { didYouMean } from './suggest.ts';
import { META_FOR, createFieldCheck, entitiesWithSchema, escape, type CheckRule } from './context.ts';

/** The reference list a field declares (`reference.list`, or its items' for a list of codes). */
function referenceListOf(field: JSONSchema7 | undefined): string | undefined {
  type WithList = JSONSchema7 & { reference?: { list?: string } };
  const items =
    field?.items && typeof field.items === 'object' && !Array.isArray(field.items) ? field.items : undefined;
  return (field as WithList | undefined)?.reference?.list ?? (items as WithList | undefined)?.reference?.list;
}

/** Grids: columns, sort, filters and remote-source parameters. */
export const gridsRule: CheckRule = {
  name: 'grids',
  run(ctx) {
    const { report, references } = ctx;
    for (const { manifest, file, schema, schemaFile, gridFile } of entitiesWithSchema(ctx)) {
      if (!gridFile || !ctx.metaValid(gridFile, META_FOR.grid)) continue;
      const field = createFieldCheck(report, schema, schemaFile);
      const grid = ctx.json<GridDefinition>(gridFile);
      // A column or filter shows the field's codes through a list: another list than the
      // schema's would show the wrong names (or none).
      const sameList = (at: string, pointer: string | undefined, list: string | undefined): void => {
        const declared = pointer && list ? referenceListOf(resolveFieldSchema(schema, pointer)) : undefined;
        if (declared && declared !== list)
          report(
            gridFile,
            at,
            `reference list "${list}" is not the one the schema declares for "${pointer}" (${schemaFile}): "${declared}"`,
          );
      };
      grid.columns.forEach((c, i) => {
        field(gridFile, `/columns/${i}/field`, c.field, { scalar: c.sortable === true });
        ctx.useKey(gridFile, `/columns/${i}/titleKey`, c.titleKey);
        if (c.reference && !references.has(c.reference))
          report(
            gridFile,
            `/columns/${i}/reference`,
            `reference list "${c.reference}" does not exist${didYouMean(c.reference, references.keys())}`,
          );
        else sameList(`/columns/${i}/reference`, c.field, c.reference);
        const format =
          c.format === undefined
            ? undefined
            : Object.hasOwn(CELL_FORMATS, c.format)
              ? CELL_FORMATS[c.format]
              : undefined;
        if (c.format !== undefined && !format)
          report(gridFile, `/columns/${i}/format`, `unknown column format "${String(c.format)}"`);
        if (format?.needsReference && !c.reference)
          report(gridFile, `/columns/${i}`, `a ${c.format} column must name its reference list`);
      });
      // An entity without a machine that shows its records' status (a column, a filter) labels
      // the one status they keep in its own texts; with a machine, the machine's labels do.
      const statusShown = [
        ...grid.columns.map((c, i) => [c.field, `/columns/${i}`] as const),
        ...grid.filters.map((f, i) => [f.field, `/filters/${i}`] as const),
      ].find(([f]) => f === '/status');
      if (statusShown && !manifest.workflow)
        ctx.useKey(gridFile, statusShown[1], `${statesKeyOf(manifest)}.${manifest.initialStatus ?? 'CREATED'}`);
      grid.defaultSort.forEach((s, i) => field(gridFile, `/defaultSort/${i}/field`, s.field, { scalar: true }));
      const filterNames = new Set<string>();
      grid.filters.forEach((flt, i) => {
        if (filterNames.has(flt.name)) report(gridFile, `/filters/${i}/name`, `duplicate filter "${flt.name}"`);
        filterNames.add(flt.name);
        ctx.useKey(gridFile, `/filters/${i}/titleKey`, flt.titleKey);
        // The meta-schema's enum and the registry agree (tests/unit/filter-kinds.test.ts); a
        // kind the registry lacks is still reported here rather than crashing the check.
        const kind = Object.hasOwn(FILTER_KINDS, flt.kind) ? FILTER_KINDS[flt.kind] : undefined;
        if (!kind) report(gridFile, `/filters/${i}/kind`, `unknown filter kind "${String(flt.kind)}"`);
        else if (kind.keywordSearch) {
          if (!manifest.keywordFields?.length)
            report(gridFile, `/filters/${i}`, `a ${flt.kind} filter needs keywordFields in ${file}`);
        } else if (flt.field) {
          const types = kind.fieldTypes ? [...kind.fieldTypes] : undefined;
          field(gridFile, `/filters/${i}/field`, flt.field, { scalar: !kind.arrayField, ...(types ? { types } : {}) });
        }
        if (flt.reference && !references.has(flt.reference))
          report(
            gridFile,
            `/filters/${i}/reference`,
            `reference list "${flt.reference}" does not exist${didYouMean(flt.reference, references.keys())}`,
          );
        else sameList(`/filters/${i}/reference`, flt.field, flt.reference);
      });
      // The bar shows the keyword box and the primary filters; more would push the list down again.
      const marked = markedFilters(grid.filters);
      if (marked.some((f) => f.primary === true) && marked.length > MAX_SHOWN_FILTERS) {
        const last = grid.filters.indexOf(marked[MAX_SHOWN_FILTERS]!);
        report(
          gridFile,
          `/filters/${last}/primary`,
          `at most ${MAX_SHOWN_FILTERS} filters are shown in the list's bar (the keyword box counts): ${marked.length} are (${marked.map((f) => f.name).join(', ')}) — leave "primary" off the less used ones`,
        );
      }
      grid.filters.forEach((flt, i) => {
        if (flt.parentFilter && !filterNames.has(flt.parentFilter))
          report(gridFile, `/filters/${i}/parentFilter`, `filter "${flt.parentFilter}" does not exist`);
      });
      for (const name of Object.keys(manifest.remoteSource?.params ?? {})) {
        const flt = grid.filters.find((f) => f.name === name);
        if (flt?.kind !== 'eq')
          report(file, `/remoteSource/params/${escape(name)}`, `"${name}" must be an eq filter of ${gridFile}`);
      }
    }
  },
};
