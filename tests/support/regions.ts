/**
 * Records placed in a region, for tests whose users are scoped by region (REGION roles): two
 * regions of the list the entities' region fields name — the test users' own (HOME) and
 * another (ELSEWHERE) — and a record's region field set with the reference fields under it (a
 * district inside the region).
 */
import type { DefinitionRegistry, EntityDefinition } from '../../src/definitions/registry.ts';
import { resolveFieldSchema } from '../../src/shared/field-schema.ts';
import { findReferenceFields } from '../../src/server/store/record-schema.ts';
import { withField } from './records.ts';

/** The regions and placement helpers of a registry's definitions. */
export function createRegionPlacer(registry: DefinitionRegistry) {
  const regionListOf = (def: EntityDefinition) => {
    const field = def.manifest.scope?.regionField;
    return field
      ? (resolveFieldSchema(def.schema, field) as { reference?: { list: string } } | undefined)?.reference?.list
      : undefined;
  };
  const regionList = [...registry.entities.values()].map(regionListOf).find(Boolean)!;
  const [HOME, ELSEWHERE] = registry.references.get(regionList)!.items.map((i) => i.id) as [number, number];

  /** Pointers of reference fields whose parent is the field at `pointer` (a district of a region). */
  const dependentsOf = (def: EntityDefinition, pointer: string): Array<{ pointer: string; list: string }> =>
    findReferenceFields(def.schema)
      .filter(
        (r) =>
          r.parentField && !r.path.includes('*') && `/${[...r.path.slice(0, -1), r.parentField].join('/')}` === pointer,
      )
      .map((r) => ({ pointer: `/${r.path.join('/')}`, list: r.list }));

  /** A record of the entity placed in a region (with its districts inside it), where it has one. */
  const inRegion = (def: EntityDefinition, data: Record<string, unknown>, region: number): Record<string, unknown> => {
    const field = def.manifest.scope?.regionField;
    if (!field) return data;
    let out = withField(data, field, region);
    for (const dep of dependentsOf(def, field)) {
      out = withField(out, dep.pointer, registry.references.get(dep.list)!.items.find((i) => i.parent === region)!.id);
    }
    return out;
  };

  return { HOME, ELSEWHERE, dependentsOf, inRegion };
}
