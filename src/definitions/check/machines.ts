/**
 * `npm run check` rules for machines (`workflows/<id>.machine.json`):
 * - structure: valid against the meta-schema, named like the file, targets and the initial
 *   state exist, every state reachable from the initial one, deadlines name an event of their state that needs no payload, no `after`;
 * - implementations: every guard, action, delay and payload check is in the registry
 *   (src/server/workflow/implementations.ts), a check's params name payload dates;
 * - texts: the i18n keys of states, events, notices and payload fields, payloads compile;
 * - fields (once entities are known): the record fields a machine names exist in the schema
 *   of each entity that follows it, with the right type.
 * Fills `ctx.machines` for the rules after it.
 */
import type Ajv from 'ajv';
import type { JSONSchema7 } from 'json-schema';
import type { MachineDefinition, Transition } from '../../generated/meta.ts';
import { resolveFieldSchema, scalarType } from '../../shared/field-schema.ts';
import { checkFormats } from './record-schema.ts';
import { META_FOR, entitiesWithSchema, escape, type CheckRule, type Report, type UseKey } from './context.ts';

type Implementations = { guards: Set<string>; actions: Set<string>; delays: Set<string>; checks: Set<string> };

/** Machines: meta-schema, id = file name, structure, implementations and texts. */
export const machinesRule: CheckRule = {
  name: 'machines',
  run(ctx) {
    const { report, useKey, implementations } = ctx;
    const impl: Implementations = {
      guards: new Set(implementations.guards),
      actions: new Set(implementations.actions),
      delays: new Set(implementations.delays),
      checks: new Set(implementations.checks),
    };
    for (const file of ctx.filesIn(/^workflows\/[^/]+$/)) {
      if (file.endsWith('.i18n.json')) continue; // the machine's texts: the locales rule reads them
      if (!file.endsWith('.machine.json')) {
        report(file, '', 'files in workflows/ must be named <id>.machine.json or <id>.i18n.json');
        continue;
      }
      if (!ctx.metaValid(file, META_FOR.machine)) continue;
      const written = ctx.json<MachineDefinition>(file);
      const name = file.slice('workflows/'.length, -'.machine.json'.length);
      if (written.id !== name) report(file, '/id', `id "${written.id}" must equal the file name "${name}"`);
      // One wrong id is one mistake: the rules after this one know the machine by its file
      // name, as manifests name it, instead of reporting every key and grant under the id.
      const machine = written.id === name ? written : { ...written, id: name };
      ctx.machines.set(machine.id, machine);
      checkMachine(file, machine, impl, report, useKey);
      checkMachineTexts(file, machine, ctx.strict, report, useKey);
    }
  },
};

/**
 * The record fields each machine names, in every entity (with a valid schema) that follows
 * it. A notice's contact field one follower lacks means no such notice for that entity; one
 * that no follower has is a mistake.
 */
export const machineFieldsRule: CheckRule = {
  name: 'machine fields',
  run(ctx) {
    const noticeContacts = new Map<string, { pointer: string; lacking: string[] }>();
    const followerCount = new Map<string, number>();
    for (const { manifest, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const machine = manifest.workflow ? ctx.machines.get(manifest.workflow) : undefined;
      if (!machine) continue;
      const machineFile = `workflows/${manifest.workflow}.machine.json`;
      for (const missing of checkMachineFields(machineFile, machine, schema, schemaFile, ctx.report)) {
        const seen = noticeContacts.get(`${machineFile}#${missing.at}`) ?? {
          pointer: missing.pointer,
          lacking: [] as string[],
        };
        seen.lacking.push(schemaFile);
        noticeContacts.set(`${machineFile}#${missing.at}`, seen);
      }
      followerCount.set(machineFile, (followerCount.get(machineFile) ?? 0) + 1);
    }
    for (const [where, seen] of noticeContacts) {
      const [machineFile, at] = where.split('#') as [string, string];
      if (seen.lacking.length === followerCount.get(machineFile))
        ctx.report(
          machineFile,
          at,
          `field "${seen.pointer}" exists in no entity following the machine (${seen.lacking.join(', ')})`,
        );
    }
  },
};

const nameOf = (n: unknown): string => (typeof n === 'string' ? n : String((n as { type: string }).type));

function checkMachine(
  file: string,
  machine: MachineDefinition,
  impl: Implementations,
  report: Report,
  useKey: UseKey,
): void {
  const states = machine.states as Record<string, NonNullable<MachineDefinition['states'][string]>>;
  if (!states[machine.initial]) report(file, '/initial', `state "${machine.initial}" does not exist`);
  else checkReachable(file, machine, report);
  for (const [stateName, state] of Object.entries(states)) {
    const base = `/states/${escape(stateName)}`;
    useKey(file, `${base}/meta/titleKey`, (state.meta as { titleKey?: string } | undefined)?.titleKey);
    const checkTransitions = (group: 'on' | 'after', key: string, value: unknown): void => {
      const list = Array.isArray(value) ? value : [value];
      list.forEach((t: Transition, i) => {
        const at = `${base}/${group}/${escape(key)}${Array.isArray(value) ? `/${i}` : ''}`;
        if (t.target && !states[t.target]) report(file, `${at}/target`, `state "${t.target}" does not exist`);
        if (t.guard && !impl.guards.has(nameOf(t.guard)))
          report(file, `${at}/guard`, `guard "${nameOf(t.guard)}" is not in the implementation registry`);
        t.actions?.forEach((a, j) => {
          if (!impl.actions.has(nameOf(a)))
            report(file, `${at}/actions/${j}`, `action "${nameOf(a)}" is not in the implementation registry`);
        });
        t.checks?.forEach((c, j) => {
          const where = `${at}/checks/${j}`;
          if (!impl.checks.has(nameOf(c)))
            return report(file, where, `check "${nameOf(c)}" is not in the implementation registry`);
          const params = (typeof c === 'string' ? {} : (c.params ?? {})) as Record<string, unknown>;
          // The checked value is a date of the event's own input; the record's side is checked per follower.
          const field =
            typeof params.field === 'string'
              ? (t.payload?.properties as Record<string, JSONSchema7> | undefined)?.[params.field.replace(/^\//, '')]
              : undefined;
          if (!field || !['date', 'date-time'].includes(String(field.format)))
            report(
              file,
              `${where}/params/field`,
              `check "${nameOf(c)}" needs params.field: a date or date-time field of the transition's payload`,
            );
          if ('than' in params && (typeof params.than !== 'string' || !params.than.startsWith('/')))
            report(file, `${where}/params/than`, 'params.than must be a JSON pointer into the record');
          useKey(file, `${where}/params/message`, params.message);
        });
      });
    };
    for (const [event, value] of Object.entries(state.on ?? {})) checkTransitions('on', event, value);
    if (state.deadline && !state.on?.[state.deadline.event])
      report(file, `${base}/deadline/event`, `the state has no event "${state.deadline.event}" for its deadline`);
    // The sweep sends the event with no payload: one that requires input could never pass.
    const deadlineTransitions = state.deadline ? state.on?.[state.deadline.event] : undefined;
    if (
      deadlineTransitions &&
      (Array.isArray(deadlineTransitions) ? deadlineTransitions : [deadlineTransitions]).some(
        (t) => t.payload?.required?.length,
      )
    ) {
      report(file, `${base}/deadline/event`, `"${state.deadline!.event}" requires a payload, but the sweep sends none`);
    }
    // A stored record runs no timers: an XState `after` would never fire between requests.
    if (state.after && Object.keys(state.after).length)
      report(
        file,
        `${base}/after`,
        'records keep no timers: declare a `deadline` (the record field holding the due date and the event the sweep sends) instead of `after`',
      );
    for (const [delay, value] of Object.entries(state.after ?? {})) {
      if (!/^\d+$/.test(delay) && !impl.delays.has(delay))
        report(file, `${base}/after/${escape(delay)}`, `delay "${delay}" is not in the implementation registry`);
      checkTransitions('after', delay, value);
    }
    for (const group of ['entry', 'exit'] as const) {
      state[group]?.forEach((a, j) => {
        if (!impl.actions.has(nameOf(a)))
          report(file, `${base}/${group}/${j}`, `action "${nameOf(a)}" is not in the implementation registry`);
      });
    }
  }
}

/** The states a state's transitions lead to: its events, `after` delays and `always`. */
function targetsOf(state: MachineDefinition['states'][string]): string[] {
  const groups = [
    ...Object.values(state.on ?? {}),
    ...Object.values(state.after ?? {}),
    ...((state as { always?: unknown }).always ? [(state as { always?: unknown }).always] : []),
  ];
  return groups
    .flatMap((g) => (Array.isArray(g) ? g : [g]))
    .map((t) => (t as Transition | undefined)?.target)
    .filter((t): t is string => typeof t === 'string');
}

/** Every state can be reached from the initial one: no record could ever be in another. */
function checkReachable(file: string, machine: MachineDefinition, report: Report): void {
  const reached = new Set([machine.initial]);
  const queue = [machine.initial];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const state = machine.states[name];
    for (const target of state ? targetsOf(state) : [])
      if (!reached.has(target) && machine.states[target]) {
        reached.add(target);
        queue.push(target);
      }
  }
  for (const name of Object.keys(machine.states))
    if (!reached.has(name))
      report(
        file,
        `/states/${escape(name)}`,
        `state "${name}" cannot be reached from the initial state "${machine.initial}" by any transition`,
      );
}

/**
 * The i18n keys a machine's screens show (`workflow.<id>.states.<STATE>` — the one label of a
 * state, on the record page, in lists, filters, history, lookups, exports and notices — and
 * `workflow.<id>.events.<EVENT>`) and its payload schemas: each compiles with the record vocabulary and titles its fields with keys.
 */
function checkMachineTexts(file: string, machine: MachineDefinition, ajv: Ajv, report: Report, useKey: UseKey): void {
  for (const [stateName, state] of Object.entries(machine.states)) {
    const base = `/states/${escape(stateName)}`;
    useKey(file, base, `workflow.${machine.id}.states.${stateName}`);
    for (const [event, value] of Object.entries(state.on ?? {})) {
      useKey(file, `${base}/on/${escape(event)}`, `workflow.${machine.id}.events.${event}`);
      (Array.isArray(value) ? value : [value]).forEach((t, i) => {
        t.notify?.forEach((n, j) => {
          // A notice naming only a stored SMS template has no i18n text (messageTemplates' check).
          if (n.channel === 'system' || !n.template) return;
          const at = `${base}/on/${escape(event)}${Array.isArray(value) ? `/${i}` : ''}/notify/${j}/template`;
          // An in-app notice is a line in a list: its text only, no subject.
          if (n.channel !== 'inApp') useKey(file, at, `${n.template}.subject`);
          useKey(file, at, `${n.template}.text`);
        });
        if (!t.payload) return;
        const at = `${base}/on/${escape(event)}${Array.isArray(value) ? `/${i}` : ''}/payload`;
        const formats = checkFormats(file, t.payload as JSONSchema7, Object.keys(ajv.formats), report, at);
        try {
          ajv.compile(t.payload);
        } catch (error) {
          if (!formats) report(file, at, `payload schema does not compile: ${(error as Error).message}`);
        }
        for (const [name, prop] of Object.entries(t.payload.properties as Record<string, JSONSchema7>)) {
          if (typeof prop.title !== 'string')
            report(file, `${at}/properties/${escape(name)}`, 'payload fields need a title (an i18n key)');
          useKey(file, `${at}/properties/${escape(name)}/title`, prop.title);
        }
      });
    }
  }
}

/**
 * The record fields a machine names exist in the schema of an entity that follows it: each
 * deadline field and each date a payload check compares with (`params.than`) is a date or
 * date-time, each notice's contact and locale field a string. Returns the contact fields this
 * follower lacks (a mistake only when every follower lacks them).
 */
function checkMachineFields(
  file: string,
  machine: MachineDefinition,
  schema: JSONSchema7,
  schemaFile: string,
  report: Report,
): Array<{ at: string; pointer: string }> {
  const missing: Array<{ at: string; pointer: string }> = [];
  const string = (at: string, pointer: string, formats?: string[]): void => {
    const target = resolveFieldSchema(schema, pointer);
    if (!target) return report(file, at, `field "${pointer}" does not exist in ${schemaFile}`);
    if (scalarType(target) !== 'string')
      return report(file, at, `field "${pointer}" of ${schemaFile} must be a string`);
    if (formats && !formats.includes(String(target.format)))
      report(file, at, `field "${pointer}" of ${schemaFile} must have format ${formats.join(' or ')}`);
  };
  // A user id is an integer (portal users) or a string (another directory's ids).
  const userField = (at: string, pointer: string): void => {
    const target = resolveFieldSchema(schema, pointer);
    if (!target) return report(file, at, `field "${pointer}" does not exist in ${schemaFile}`);
    const type = scalarType(target);
    if (type !== 'integer' && type !== 'string')
      report(file, at, `field "${pointer}" of ${schemaFile} must hold a user id (an integer or a string)`);
  };
  // An in-app notice's recipients: a staff user field (`staffUser`), or an array of them — an
  // integer alone could be any id (a region's, a record's), so the flag says it is a user's.
  const userIds = (at: string, pointer: string): void => {
    const target = resolveFieldSchema(schema, pointer);
    if (!target) return report(file, at, `field "${pointer}" does not exist in ${schemaFile}`);
    const items = scalarType(target) === 'array' ? (target.items as JSONSchema7 | undefined) : target;
    const flagged = (s: JSONSchema7 | undefined) => (s as { staffUser?: boolean } | undefined)?.staffUser === true;
    if (!flagged(items) || scalarType(items!) !== 'integer')
      report(
        file,
        at,
        `field "${pointer}" of ${schemaFile} must hold user ids: a staff user field ("staffUser": true) or an array of them`,
      );
  };
  for (const [stateName, state] of Object.entries(machine.states)) {
    const base = `/states/${escape(stateName)}`;
    if (state.deadline) string(`${base}/deadline/field`, state.deadline.field, ['date', 'date-time']);
    if (state.awaits) userField(`${base}/awaits/field`, state.awaits.field);
    for (const [event, value] of Object.entries(state.on ?? {})) {
      (Array.isArray(value) ? value : [value]).forEach((t: Transition, i) => {
        t.checks?.forEach((c, j) => {
          const than = typeof c === 'string' ? undefined : (c.params as { than?: unknown } | undefined)?.than;
          if (typeof than === 'string' && than.startsWith('/'))
            string(`${base}/on/${escape(event)}${Array.isArray(value) ? `/${i}` : ''}/checks/${j}/params/than`, than, [
              'date',
              'date-time',
            ]);
        });
        t.notify?.forEach((n, j) => {
          const at = `${base}/on/${escape(event)}${Array.isArray(value) ? `/${i}` : ''}/notify/${j}`;
          if (n.channel === 'system') return;
          if (n.channel === 'inApp') return userIds(`${at}/to`, n.to);
          if (!resolveFieldSchema(schema, n.to)) missing.push({ at: `${at}/to`, pointer: n.to });
          else string(`${at}/to`, n.to);
          if (n.locale && resolveFieldSchema(schema, n.to)) string(`${at}/locale`, n.locale);
        });
      });
    }
  }
  return missing;
}
