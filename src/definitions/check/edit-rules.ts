/**
 * `npm run check` rules for an entity's edit rules (`schemas/<entity>/edit.json`): every state
 * of the machine is governed (named, or covered by "*" unless final), every state named exists,
 * every field and field set exists, and every `who` can fit someone (a role that exists, an
 * assigned-user field that holds user ids, recipients the manifest declares).
 */
import type { JSONSchema7 } from 'json-schema';
import type { AccessDefinition, EditRules, EntityManifest, MachineDefinition } from '../../generated/meta.ts';
import { isSystemPointer, resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { OTHER_STATES, statesOf } from '../../shared/edit-rules.ts';
import { META_FOR, entitiesWithSchema, type CheckRule, type Report } from './context.ts';

/** What the edit rules are checked against. */
export interface EditRulesContext {
  manifest: EntityManifest;
  schema: JSONSchema7;
  schemaFile: string;
  machine: MachineDefinition | undefined;
  access: AccessDefinition | undefined;
}

const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/**
 * Reports every problem of one edit-rules file (already valid against its meta-schema).
 * @example checkEditRules('schemas/tender/edit.json', rules, { manifest, schema, schemaFile, machine, access }, report)
 */
export function checkEditRules(file: string, rules: EditRules, ctx: EditRulesContext, report: Report): void {
  const { manifest, schema, schemaFile, machine } = ctx;
  const roles = new Set((ctx.access?.roles ?? []).map((r) => r.code));
  const sets = rules.fieldSets ?? {};
  const usedSets = new Set<string>();

  const field = (pointer: string, at: string): void => {
    if (pointer.startsWith('@')) {
      const name = pointer.slice(1);
      if (!(name in sets))
        report(
          file,
          at,
          `field set "${pointer}" is not declared in fieldSets (declared: ${
            Object.keys(sets)
              .map((s) => `@${s}`)
              .join(', ') || 'none'
          })`,
        );
      usedSets.add(name);
    } else if (isSystemPointer(pointer))
      report(file, at, `"${pointer}" is a server-owned field: nobody changes it through an update`);
    else if (!resolveFieldSchema(schema, pointer))
      report(file, at, `field "${pointer}" does not exist in ${schemaFile}`);
  };
  const who = (value: string, at: string): void => {
    if (value.startsWith('role:') && !roles.has(value.slice(5))) {
      report(file, at, `role "${value.slice(5)}" is not a role of schemas/_access/access.json`);
    } else if (value.startsWith('assigned:')) {
      const pointer = value.slice('assigned:'.length);
      const target = resolveFieldSchema(schema, pointer);
      const items =
        target?.type === 'array' && target.items && typeof target.items === 'object' && !Array.isArray(target.items)
          ? (target.items as JSONSchema7)
          : undefined;
      const type = items ? scalarType(items) : target ? scalarType(target) : undefined;
      if (!target) report(file, at, `field "${pointer}" does not exist in ${schemaFile}`);
      else if (type !== 'integer' && type !== 'string')
        report(file, at, `field "${pointer}" must hold a user id (an integer or text, or a list of them)`);
    } else if (value === 'recipient' && !manifest.scope?.recipients?.length) {
      report(file, at, 'a "recipient" rule needs scope.recipients in the manifest');
    }
  };

  for (const [name, fields] of Object.entries(sets)) {
    fields.forEach((f, i) => {
      if (f.startsWith('@')) report(file, `/fieldSets/${name}/${i}`, 'a field set lists fields, not other sets');
      else field(f, `/fieldSets/${name}/${i}`);
    });
  }

  (rules.replaceableFiles ?? []).forEach((pointer, i) => {
    const target = resolveFieldSchema(schema, pointer) as (JSONSchema7 & { file?: boolean }) | undefined;
    if (!target) report(file, `/replaceableFiles/${i}`, `field "${pointer}" does not exist in ${schemaFile}`);
    else if (!target.file)
      report(file, `/replaceableFiles/${i}`, `field "${pointer}" is not a file field (file: true)`);
  });

  const states = machine ? statesOf(machine) : undefined;
  for (const [state, set] of Object.entries(rules.states)) {
    const at = `/states/${state === OTHER_STATES ? '*' : state}`;
    if (state !== OTHER_STATES) {
      if (!machine) report(file, at, `the entity has no machine: its one rule set is "*" (not "${state}")`);
      else if (!states!.names.includes(state))
        report(
          file,
          at,
          `state "${state}" is not a state of workflows/${machine.id}.machine.json (states: ${states!.names.join(', ')})`,
        );
    }
    if (set.update !== 'none') {
      set.update.forEach((rule, i) => {
        list(rule.who).forEach((w, j) =>
          who(w, Array.isArray(rule.who) ? `${at}/update/${i}/who/${j}` : `${at}/update/${i}/who`),
        );
        if (rule.fields !== 'all') rule.fields.forEach((f, j) => field(f, `${at}/update/${i}/fields/${j}`));
        rule.except?.forEach((f, j) => field(f, `${at}/update/${i}/except/${j}`));
      });
    }
    if (set.delete && set.delete !== 'none')
      list(set.delete).forEach((w, j) => who(w, Array.isArray(set.delete) ? `${at}/delete/${j}` : `${at}/delete`));
  }

  if (!machine && !rules.states[OTHER_STATES])
    report(file, '/states', 'an entity without a machine needs its rule set under "*"');
  if (machine && states && !rules.states[OTHER_STATES]) {
    const ungoverned = states.names.filter((s) => !states.final.has(s) && !rules.states[s]);
    if (ungoverned.length)
      report(
        file,
        '/states',
        `no rule for the state(s) ${ungoverned.join(', ')} of workflows/${machine.id}.machine.json: name each, or add "*"`,
      );
  }
  if (
    machine &&
    states &&
    rules.states[OTHER_STATES] &&
    states.names.every((s) => states.final.has(s) || rules.states[s])
  ) {
    report(file, '/states/*', 'every state that is not final is named: "*" governs nothing');
  }
  for (const name of Object.keys(sets))
    if (!usedSets.has(name)) report(file, `/fieldSets/${name}`, `field set "@${name}" is used by no rule`);
}

/** Edit rules: each entity's edit.json (valid against its meta-schema) against its schema, machine and roles. */
export const editRulesRule: CheckRule = {
  name: 'edit rules',
  run(ctx) {
    for (const { manifest, schema, schemaFile, editFile } of entitiesWithSchema(ctx)) {
      if (!editFile || !ctx.metaValid(editFile, META_FOR.edit)) continue;
      checkEditRules(
        editFile,
        ctx.json<EditRules>(editFile),
        {
          manifest,
          schema,
          schemaFile,
          machine: manifest.workflow ? ctx.machines.get(manifest.workflow) : undefined,
          access: ctx.accessJson,
        },
        ctx.report,
      );
    }
  },
};
