/**
 * `npm run check` rule for seeds: the manifest's `seed` (a key that is one of its unique
 * fields, needed for "missing" and for `{"$seed"}` references; a generator that exists) and
 * the seed file's records (valid against the seed meta-schema and the record schema, each
 * `{"$seed": key}` naming an earlier record).
 */
import type { ValidateFunction } from 'ajv';
import type { SeedFile } from '../../generated/meta.ts';
import { SEED_GENERATORS } from '../seed-generators.ts';
import { valueAt } from '../../shared/pointer.ts';
import {
  META_FOR,
  createFieldCheck,
  entitiesWithSchema,
  escape,
  schemaErrorMessage,
  type CheckRule,
} from './context.ts';

const isPlaceholder = (v: unknown): boolean => Boolean(v && typeof v === 'object' && '$seed' in v);

/** Seeds: the manifest's seed key and generator, the seed file's records. */
export const seedsRule: CheckRule = {
  name: 'seeds',
  run(ctx) {
    const { report } = ctx;
    for (const { manifest, file, schema, schemaFile, seedFile } of entitiesWithSchema(ctx)) {
      const seed = manifest.seed;
      if (!seed) continue;
      // A key names records ("missing" looks them up, {"$seed"} points at them); "empty" needs none.
      if (seed.key) {
        createFieldCheck(report, schema, schemaFile)(file, '/seed/key', seed.key, { scalar: true });
        if (!manifest.unique?.includes(seed.key))
          report(file, '/seed/key', `seed key "${seed.key}" must be one of the manifest's unique fields`);
      } else if (seed.when === 'missing') report(file, '/seed/key', 'a seed with when "missing" needs a key');
      if (seed.generator && !SEED_GENERATORS.has(seed.generator))
        report(file, '/seed/generator', `seed generator "${seed.generator}" does not exist`);

      if (!seedFile || !ctx.sources.has(seedFile) || !ctx.metaValid(seedFile, META_FOR.seed)) continue;
      let validate: ValidateFunction;
      try {
        validate = ctx.strict.compile(schema);
      } catch {
        continue; // the record-schema rule reported why; records cannot be judged against it
      }
      const keys = new Set<string>();
      ctx.json<SeedFile>(seedFile).records.forEach((record: Record<string, unknown>, i) => {
        for (const [name, v] of Object.entries(record)) {
          if (isPlaceholder(v) && !seed.key)
            report(seedFile, `/records/${i}/${escape(name)}`, 'a {"$seed"} reference needs the manifest\'s seed.key');
          else if (isPlaceholder(v) && !keys.has(String((v as { $seed: unknown }).$seed)))
            report(
              seedFile,
              `/records/${i}/${escape(name)}`,
              `no earlier record has ${seed.key} = "${String((v as { $seed: unknown }).$seed)}"`,
            );
        }
        const resolved = Object.fromEntries(Object.entries(record).map(([k, v]) => [k, isPlaceholder(v) ? 1 : v]));
        if (!validate(resolved))
          for (const e of validate.errors ?? [])
            report(seedFile, `/records/${i}${e.instancePath}`, schemaErrorMessage(e, resolved));
        if (seed.key) keys.add(String(valueAt(record, seed.key)));
      });
    }
  },
};
