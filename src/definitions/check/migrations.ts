/**
 * `npm run check` rule for schema versions and record migrations (docs/schema-evolution.md):
 * every `schemas/<id>/migrations/*.json` is named by its version and valid against the
 * migration meta-schema; the versions run 2…`schemaVersion` with no gap and none above; a
 * script step's module exists beside it and its migration lists the fields it handles
 * (`covers`); the fields the newest migration writes exist in the record schema.
 */
import type { RecordMigration } from '../../generated/meta.ts';
import { createFieldCheck, escape, type CheckRule } from './context.ts';

const MIGRATION_META = 'migration.schema.json';

/** Migrations: file names, the meta-schema, contiguous versions, script modules, written fields. */
export const migrationsRule: CheckRule = {
  name: 'migrations',
  run(ctx) {
    const { report } = ctx;
    for (const entry of ctx.entityList) {
      const { manifest, file: manifestFile, dir } = entry;
      const current = manifest.schemaVersion ?? 1;
      const found = new Map<number, string>();
      for (const file of ctx.filesIn(/\/migrations\/[^/]+\.json$/)) {
        if (!file.startsWith(`${dir}/migrations/`)) continue;
        const name = file.slice(`${dir}/migrations/`.length);
        const m = /^([1-9][0-9]*)\.json$/.exec(name);
        if (!m) {
          report(file, '', `a migration file is named by the version it migrates to, like "2.json", not "${name}"`);
          continue;
        }
        const version = Number(m[1]);
        if (version < 2 || version > current) {
          report(
            file,
            '',
            `migration ${version} does not fit the manifest's schemaVersion ${current} (${manifestFile}#/schemaVersion): migrations run from 2 to it`,
          );
          continue;
        }
        found.set(version, file);
        if (!ctx.metaValid(file, MIGRATION_META)) continue;
        const migration = ctx.json<RecordMigration>(file);
        const scripts = migration.steps.flatMap((s, i) => (s.op === 'script' ? [{ module: s.module, i }] : []));
        for (const { module, i } of scripts) {
          const script = `${dir}/migrations/${module.slice(2)}`;
          if (!ctx.sources.get(script)?.script)
            report(file, `/steps/${i}/module`, `script module ${script} does not exist`);
        }
        if (scripts.length && !migration.covers?.length)
          report(
            file,
            '/covers',
            'a migration with a script step lists the stored fields the script handles in "covers" (a script covers nothing by name)',
          );
        if (version === current && entry.schema && entry.schemaFile) {
          const field = createFieldCheck(report, entry.schema, entry.schemaFile);
          migration.steps.forEach((s, i) => {
            const at = `/steps/${i}`;
            if (s.op === 'rename' || s.op === 'move') field(file, `${at}/to`, s.to);
            if (s.op === 'join') field(file, `${at}/to`, s.to);
            if (s.op === 'default') field(file, `${at}/path`, s.path);
            if (s.op === 'split') s.to.forEach((to, j) => field(file, `${at}/to/${j}`, to));
          });
        }
      }
      for (let version = 2; version <= current; version++) {
        if (!found.has(version))
          report(
            manifestFile,
            '/schemaVersion',
            `schemaVersion is ${current} but ${dir}/migrations/${escape(String(version))}.json is missing: each version from 2 up needs the migration that brings stored records to it`,
          );
      }
    }
  },
};
