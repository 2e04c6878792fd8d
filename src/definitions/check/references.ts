/**
 * `npm run check` rule for reference lists (`schemas/_reference/<kind>.json`): each is valid
 * against its meta-schema and named like its file; ids and codes are unique; a parent names an
 * item of the list's `parentKind`, which exists. Fills `ctx.references` for the rules after it.
 * (A list kept as an entity's records is checked against that entity in cross-refs.ts.)
 */
import type { ReferenceList } from '../../generated/meta.ts';
import { META_FOR, type CheckRule } from './context.ts';

/** Reference lists: meta-schema, kind = file name, unique ids and codes, parents that exist. */
export const referenceListsRule: CheckRule = {
  name: 'reference lists',
  run(ctx) {
    const { report, references } = ctx;
    for (const file of ctx.filesIn(/^schemas\/_reference\/[^/]+\.json$/)) {
      if (!ctx.metaValid(file, META_FOR.reference)) continue;
      const list = ctx.json<ReferenceList>(file);
      const name = file.slice('schemas/_reference/'.length, -'.json'.length);
      if (list.kind !== name) report(file, '/kind', `kind "${list.kind}" must equal the file name "${name}"`);
      references.set(list.kind, list);
    }
    for (const [kind, list] of references) {
      const file = `schemas/_reference/${kind}.json`;
      const ids = new Set<number>();
      const codes = new Set<string>();
      const parentIds = list.parentKind ? new Set(references.get(list.parentKind)?.items.map((i) => i.id)) : undefined;
      if (list.parentKind && !references.has(list.parentKind))
        report(file, '/parentKind', `reference list "${list.parentKind}" does not exist`);
      list.items.forEach((item, i) => {
        if (ids.has(item.id)) report(file, `/items/${i}/id`, `duplicate id ${item.id}`);
        if (codes.has(item.code)) report(file, `/items/${i}/code`, `duplicate code "${item.code}"`);
        ids.add(item.id);
        codes.add(item.code);
        if (item.parent != null && parentIds && !parentIds.has(item.parent)) {
          report(file, `/items/${i}/parent`, `parent ${item.parent} is not an id of "${list.parentKind}"`);
        }
        if (item.parent != null && !list.parentKind)
          report(file, `/items/${i}/parent`, 'parent given but the list has no parentKind');
      });
    }
  },
};
