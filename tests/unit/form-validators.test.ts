/**
 * The form validators generated at build time (scripts/form-validators.ts, through the same
 * Vite plugin the build uses) against the form's compiler (src/engine/form/form-compiler.ts,
 * the ajv setup the browser used before) and the server's ajv (src/server/validation.ts): for
 * every entity's record schema, every screen's own form schema and every machine's transition
 * payload, valid samples and hostile ones get the same verdict from all three, and the form
 * shows exactly the compiler's errors.
 */
import { describe, expect, it } from 'vitest';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import { hashForSchema, type RJSFSchema, type ValidatorType } from '@rjsf/utils';
import type { JSONSchema7 } from 'json-schema';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import type { MachineDefinition } from '../../src/generated/meta.ts';
import { REPO_ROOT } from '../../src/server/app.ts';
import { createServerAjv } from '../../src/server/validation.ts';
import { createFormCompiler } from '../../src/engine/form/form-compiler.ts';
import { localizeErrors } from '../../src/engine/form/localize.ts';
import type { GeneratedFormValidator } from '../../src/engine/form/generated-validators.ts';
import { formSchemasIn } from '../../scripts/form-validators.ts';
import { createSampler } from '../support/sample-data.ts';
import { hostileJson, type DocSchema } from '../support/hostile-values.ts';

const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
const seedOf = (id: string): number => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

/** The generated module of a definition file, as the app imports it. */
async function generated(file: string): Promise<GeneratedFormValidator[]> {
  const mod = (await import(/* @vite-ignore */ `${file}?form-validator`)) as { default: GeneratedFormValidator[] };
  return mod.default;
}

/** Records that break the schema: each top-level field in turn hostile, each required field in turn missing. */
function invalidVariants(schema: JSONSchema7, valid: Record<string, unknown>): Array<{ label: string; data: unknown }> {
  const out: Array<{ label: string; data: unknown }> = [];
  for (const [name, field] of Object.entries(schema.properties ?? {}))
    for (const { label, value } of hostileJson(field as DocSchema))
      out.push({ label: `${name}: ${label}`, data: { ...valid, [name]: value } });
  for (const name of schema.required ?? []) {
    const { [name]: _gone, ...rest } = valid;
    out.push({ label: `${name} missing`, data: rest });
  }
  out.push({ label: 'unknown field', data: { ...valid, notAField: 1 } });
  return out;
}

/** What the form shows: rjsf's errors after the portal's `transformErrors`. */
const shown = (validator: ValidatorType, schema: RJSFSchema, data: unknown) => {
  const { errors, errorSchema } = validator.validateFormData(data, schema, undefined, localizeErrors);
  return { errors, errorSchema };
};

function agree(
  schema: RJSFSchema,
  fns: GeneratedFormValidator['validateFns'],
  cases: Array<{ label: string; data: unknown }>,
) {
  const compiled = createPrecompiledValidator(fns, schema);
  const compiler = createFormCompiler();
  const server = createServerAjv().compile(schema);
  for (const { label, data } of cases) {
    const form = shown(compiled, schema, data);
    expect(form, label).toEqual(shown(compiler, schema, data));
    expect(form.errors.length === 0, `${label}: the server's verdict`).toBe(server(data));
    expect(compiled.isValid(schema, data, schema), label).toBe(compiler.isValid(schema, data, schema));
  }
}

describe('form validators generated at build time', () => {
  for (const def of registry.entities.values()) {
    it(`${def.id}: the same verdicts and messages as the compiler and the server`, async () => {
      const [only, ...more] = await generated(`/schemas/${def.id}/schema.json`);
      expect(more).toEqual([]);
      expect(only!.hash).toBe(hashForSchema(def.schema as RJSFSchema));
      const sample = createSampler(def.schema, registry.references, createServerAjv());
      const seed = seedOf(def.id);
      const valid = [
        sample(seed, { full: true }),
        sample(seed + 1, { full: false }),
        sample(seed + 2, { full: false, minimal: true }),
      ];
      const cases = [
        ...valid.map((data, i) => ({ label: `valid sample ${i}`, data })),
        ...invalidVariants(def.schema, valid[0]!),
      ];
      // The samples themselves are valid: else the invalid variants would prove nothing.
      expect(createServerAjv().validate(def.schema, valid[0]), def.id).toBe(true);
      agree(def.schema as RJSFSchema, only!.validateFns, cases);
    });
  }

  const withForms = [...registry.screens.values()].filter((s) => formSchemasIn(s, 'screen').length > 0);
  it('finds the screens that hold form schemas of their own (a sign-in form, flow steps)', () => {
    expect(withForms.map((s) => s.kind)).toEqual(expect.arrayContaining(['signin', 'flow']));
  });
  for (const screen of withForms) {
    it(`screen ${screen.id}: each own form schema agrees with the compiler and the server`, async () => {
      const roots = formSchemasIn(screen, 'screen');
      const modules = await generated(`/screens/${screen.id}.json`);
      expect(modules.map((m) => m.hash)).toEqual(roots.map((r) => hashForSchema(r)));
      roots.forEach((root, i) => {
        const cases = [{ label: 'empty', data: {} }, ...invalidVariants(root as JSONSchema7, {})];
        agree(root, modules[i]!.validateFns, cases);
      });
    });
  }

  /** Every transition's payload schema of a machine, as the server sends it (GET events), in file order. */
  const payloadsOf = (machine: MachineDefinition): RJSFSchema[] =>
    Object.values(machine.states ?? {}).flatMap((state) =>
      Object.values((state as { on?: Record<string, unknown> }).on ?? {})
        .flatMap((t) => (Array.isArray(t) ? t : [t]) as Array<{ payload?: RJSFSchema }>)
        .flatMap((t) => (t.payload ? [t.payload] : [])),
    );
  const machines = [...registry.machines.values()].filter((m) => payloadsOf(m).length > 0);
  it('finds every transition payload of every machine (each written schema once)', () => {
    expect(machines.length).toBeGreaterThan(10);
    for (const machine of machines) {
      const roots = formSchemasIn(machine, 'machine');
      const hashes = new Set(payloadsOf(machine).map((p) => hashForSchema(p)));
      expect(roots.map((r) => hashForSchema(r)).sort(), machine.id).toEqual([...hashes].sort());
    }
    // The advertising passport's rejection asks for its grounds.
    const reject = formSchemasIn(registry.machines.get('advertising-passport'), 'machine');
    expect(reject.map((r) => r.required)).toEqual([['grounds']]);
  });
  for (const machine of machines) {
    it(`machine ${machine.id}: each transition payload agrees with the compiler and the server`, async () => {
      const roots = formSchemasIn(machine, 'machine');
      const modules = await generated(`/workflows/${machine.id}.machine.json`);
      expect(modules.map((m) => m.hash)).toEqual(roots.map((r) => hashForSchema(r)));
      roots.forEach((root, i) => {
        const sample = createSampler(root as JSONSchema7, registry.references, createServerAjv());
        const seed = seedOf(`${machine.id} ${i}`);
        const valid = [sample(seed, { full: true }), sample(seed + 1, { full: false, minimal: true })];
        // The samples themselves are valid: else the invalid variants would prove nothing.
        expect(createServerAjv().validate(root, valid[0]), `${machine.id} ${i}`).toBe(true);
        const cases = [
          ...valid.map((data, j) => ({ label: `valid sample ${j}`, data })),
          { label: 'empty', data: {} },
          ...invalidVariants(root as JSONSchema7, valid[0] as Record<string, unknown>),
        ];
        agree(root, modules[i]!.validateFns, cases);
      });
    });
  }
});
