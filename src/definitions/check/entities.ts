/**
 * `npm run check` rules for entity manifests (`schemas/<entity>/entity.json`):
 * - manifests: valid against the meta-schema, id = folder name, unique API base and CASL
 *   subject, a machine and an adapter that exist, every file the manifest names exists and
 *   every file in the folder is named by it (a folder without a manifest is reported too).
 *   Fills `ctx.entities` / `ctx.entityList` with the files found, for the rules after it;
 * - fields (once the record schema is known): every field the manifest names (keyword
 *   search, label, scope, unique keys, tree, photo, locale) exists in the schema with a
 *   fitting type. The capabilities of src/server/capabilities/ check their own keys.
 */
import { unknownNameMessage } from './suggest.ts';
import type { EntityManifest } from '../../generated/meta.ts';
import { META_FOR, createFieldCheck, entitiesWithSchema, escape, type CheckRule, type EntityEntry } from './context.ts';

/** Manifests: meta-schema, names, uniqueness, the files they name and the files they do not. */
export const entityManifestsRule: CheckRule = {
  name: 'entity manifests',
  run(ctx) {
    const { report, sources } = ctx;
    const bases = new Map<string, string>();
    const subjects = new Map<string, string>();
    for (const file of ctx.filesIn(/^schemas\/[^_][^/]*\/entity\.json$/)) {
      const dir = file.slice(0, -'/entity.json'.length);
      const folder = dir.slice('schemas/'.length);
      const claimed = new Set([file]);
      if (!ctx.metaValid(file, META_FOR.entity)) continue;
      const written = ctx.json<EntityManifest>(file);
      if (written.id !== folder) report(file, '/id', `id "${written.id}" must equal the folder name "${folder}"`);
      // One wrong id is one mistake: the rules after this one know the entity by its folder,
      // as screens, access and other entities name it, instead of reporting each of those.
      const manifest = written.id === folder ? written : { ...written, id: folder };
      ctx.useKey(file, '/titleKey', manifest.titleKey);
      if (bases.has(manifest.base))
        report(file, '/base', `base "${manifest.base}" is already used by ${bases.get(manifest.base)}`);
      bases.set(manifest.base, file);
      if (subjects.has(manifest.subject))
        report(file, '/subject', `subject "${manifest.subject}" is already used by ${subjects.get(manifest.subject)}`);
      subjects.set(manifest.subject, file);
      if (
        manifest.workflow &&
        !ctx.machines.has(manifest.workflow) &&
        !sources.has(`workflows/${manifest.workflow}.machine.json`)
      ) {
        report(file, '/workflow', `machine workflows/${manifest.workflow}.machine.json does not exist`);
      }
      if (manifest.remoteSource) {
        // The method exists and takes the parameters the filters are sent as.
        const methodFile = `schemas/_integrations/${manifest.remoteSource.integration}.json`;
        const method = sources.get(methodFile)?.json as
          | { params?: { properties?: Record<string, unknown> } }
          | undefined;
        if (!method) report(file, '/remoteSource/integration', `method ${methodFile} does not exist`);
        else {
          const names = Object.keys(method.params?.properties ?? {});
          const sent = [
            ...Object.entries(manifest.remoteSource.params).map(([k, v]) => [`/remoteSource/params/${k}`, v] as const),
            ...(manifest.remoteSource.localeParam
              ? [['/remoteSource/localeParam/name', manifest.remoteSource.localeParam.name] as const]
              : []),
          ];
          for (const [at, name] of sent)
            if (!names.includes(name))
              report(
                file,
                at,
                unknownNameMessage('parameter', name, `a parameter of ${manifest.remoteSource.integration}`, names),
              );
        }
      }
      if (manifest.workflow && manifest.initialStatus)
        report(file, '/initialStatus', 'an entity with a workflow takes its initial status from the machine');

      const fileOf = (key: 'schema' | 'ui' | 'grid' | 'edit'): string | undefined => {
        const name = manifest[key];
        if (!name) return undefined;
        const path = `${dir}/${name}`;
        claimed.add(path);
        if (!sources.has(path)) {
          report(file, `/${key}`, `file ${path} does not exist`);
          return undefined;
        }
        return path;
      };
      const entry: EntityEntry = {
        manifest,
        file,
        dir,
        schemaFile: fileOf('schema'),
        uiFile: fileOf('ui'),
        gridFile: fileOf('grid'),
        editFile: fileOf('edit'),
        viewFiles: Object.entries(manifest.views ?? {}).flatMap(([name, viewFile]) => {
          const path = `${dir}/${viewFile}`;
          claimed.add(path);
          if (sources.has(path)) return [path];
          report(file, `/views/${escape(name)}`, `file ${path} does not exist`);
          return [];
        }),
        seedFile: manifest.seed?.file ? `${dir}/${manifest.seed.file}` : undefined,
      };
      if (entry.seedFile) {
        claimed.add(entry.seedFile);
        if (!sources.has(entry.seedFile)) report(file, '/seed/file', `file ${entry.seedFile} does not exist`);
      }
      // The entity's texts (`i18n.json`) belong to the folder without being named: the locales rule reads them.
      claimed.add(`${dir}/i18n.json`);
      for (const other of ctx.filesIn(new RegExp(`^${dir}/[^/]+$`))) {
        if (!claimed.has(other)) report(other, '', `not named by ${file}`);
      }
      ctx.entities.set(manifest.id, entry);
      ctx.entityList.push(entry);
    }
    for (const [file] of sources) {
      const m = /^schemas\/([^_/][^/]*)\/[^/]+$/.exec(file);
      if (m && !sources.has(`schemas/${m[1]}/entity.json`))
        report(file, '', `folder schemas/${m[1]} has no entity.json`);
    }
  },
};

/** The fields a manifest names exist in its record schema, with fitting types. */
export const manifestFieldsRule: CheckRule = {
  name: 'manifest fields',
  run(ctx) {
    const { report } = ctx;
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const field = createFieldCheck(report, schema, schemaFile);
      manifest.keywordFields?.forEach((p, i) => field(file, `/keywordFields/${i}`, p, { types: ['string'] }));
      if (manifest.labelField) field(file, '/labelField', manifest.labelField, { scalar: true });
      manifest.titleFields?.forEach((p, i) => field(file, `/titleFields/${i}`, p, { scalar: true }));
      if (manifest.scope?.regionField)
        field(file, '/scope/regionField', manifest.scope.regionField, { types: ['integer'] });
      manifest.scope?.recipients?.forEach((r, i) =>
        field(file, `/scope/recipients/${i}/field`, r.field, { types: ['string'] }),
      );
      if (manifest.stampOnDownload) {
        field(file, '/stampOnDownload', manifest.stampOnDownload, { types: ['string'] });
        if (!manifest.scope?.recipients)
          report(file, '/stampOnDownload', 'a download stamp needs scope.recipients (whose download counts)');
      }
      manifest.unique?.forEach((p, i) => field(file, `/unique/${i}`, p, { scalar: true }));
      if (manifest.tree) {
        field(file, '/tree/parentField', manifest.tree.parentField, { types: ['integer'] });
        if (manifest.tree.sortField) field(file, '/tree/sortField', manifest.tree.sortField, { scalar: true });
      }
      if (manifest.photo) field(file, '/photo/field', manifest.photo.field);
      if (manifest.localeField) field(file, '/localeField', manifest.localeField, { types: ['string'] });
    }
  },
};
