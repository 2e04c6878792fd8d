/**
 * `npm run check` rules that join definitions of different kinds, run once all of them are
 * known:
 * - every `entityRef` of a record schema names an entity;
 * - a reference list kept as an entity's records has a backing entity with the fields a list
 *   needs, and no items or parent of its own;
 * - every event of an entity's machine is granted to some role (else only admins could send
 *   it), except deadline events, which the sweep sends as the system.
 */
import type { JSONSchema7 } from 'json-schema';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { entitiesWithSchema, escape, type CheckContext, type CheckRule } from './context.ts';

/** Every `entityRef` of a record schema, with its schema pointer. */
function entityRefsOf(schema: JSONSchema7 | undefined): Array<{ pointer: string; entity: string }> {
  const out: Array<{ pointer: string; entity: string }> = [];
  const walk = (node: unknown, pointer: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${pointer}/${i}`));
    const ref = (node as { entityRef?: { entity?: unknown } }).entityRef;
    if (ref && typeof ref.entity === 'string') out.push({ pointer, entity: ref.entity });
    for (const [k, v] of Object.entries(node))
      if (k !== 'entityRef' && typeof v === 'object') walk(v, `${pointer}/${escape(k)}`);
  };
  walk(schema, '');
  return out;
}

function checkEntityRefs(ctx: CheckContext): void {
  for (const [id, { manifest, schema }] of ctx.entities) {
    const schemaFile = `schemas/${id}/${manifest.schema}`;
    for (const { pointer, entity } of entityRefsOf(schema)) {
      if (!ctx.entities.has(entity))
        ctx.report(schemaFile, `${pointer}/entityRef/entity`, `entity "${entity}" does not exist`);
    }
  }
}

function checkReferenceListEntities(ctx: CheckContext): void {
  for (const [kind, list] of ctx.references) {
    if (!list.entity) continue;
    const file = `schemas/_reference/${kind}.json`;
    const backing = ctx.entities.get(list.entity);
    if (!backing) ctx.report(file, '/entity', `entity "${list.entity}" does not exist`);
    else {
      const props = (backing.schema?.properties ?? {}) as Record<string, JSONSchema7>;
      for (const name of ['code', 'nameLt', 'nameUz', 'nameRu', 'nameEn'])
        if (props[name]?.type !== 'string')
          ctx.report(file, '/entity', `entity "${list.entity}" needs a string field ${name}`);
      if (props.active && props.active.type !== 'boolean')
        ctx.report(file, '/entity', `the field active of "${list.entity}" must be a boolean`);
      if (props.order && props.order.type !== 'integer')
        ctx.report(file, '/entity', `the field order of "${list.entity}" must be an integer`);
    }
    if (list.items.length)
      ctx.report(file, '/items', "a list kept as an entity's records has no items here (the entity's seed holds them)");
    if (list.parentKind) ctx.report(file, '/parentKind', "a list kept as an entity's records is flat");
  }
}

function checkEventGrants(ctx: CheckContext): void {
  const access = ctx.accessJson;
  if (!access) return;
  const granted = new Set(access.roles.flatMap((r) => r.permissions));
  for (const { manifest, file } of ctx.entityList) {
    const machine = manifest.workflow ? ctx.machines.get(manifest.workflow) : undefined;
    if (!machine) continue;
    const events = new Set(Object.values(machine.states).flatMap((s) => Object.keys(s.on ?? {})));
    for (const s of Object.values(machine.states)) if (s.deadline) events.delete(s.deadline.event);
    for (const event of [...events].sort()) {
      if (!granted.has(`${event} ${manifest.subject}`))
        ctx.report(
          file,
          '/workflow',
          `no role in schemas/_access/access.json may send ${event} (permission "${event} ${manifest.subject}")`,
        );
    }
  }
}

/** Cross-definition references: entityRefs, entity-kept lists, event grants. */
export const crossRefsRule: CheckRule = {
  name: 'cross-definition references',
  run(ctx) {
    checkEntityRefs(ctx);
    checkReferenceListEntities(ctx);
    checkEventGrants(ctx);
  },
};
