/**
 * `npm run check` rule of the `publicSubmit` capability: no two manifests submit on one path
 * (each is a route of its own), and the fields it `sets` are scalar fields of the record.
 */
import { createFieldCheck, entitiesWithSchema } from '../../../definitions/check/context.ts';
import type { CheckRule } from '../../../definitions/check/context.ts';
import { escapeSegment } from '../../../shared/pointer.ts';

const publicSubmitCheck: CheckRule = {
  name: 'public submissions',
  run(ctx) {
    const paths = new Map<string, string>();
    for (const { manifest, file } of ctx.entityList) {
      const submit = manifest.publicSubmit;
      if (!submit) continue;
      if (paths.has(submit.path))
        ctx.report(file, '/publicSubmit/path', `path "${submit.path}" is already used by ${paths.get(submit.path)}`);
      paths.set(submit.path, file);
    }
    for (const { manifest, file, schema, schemaFile } of entitiesWithSchema(ctx)) {
      const field = createFieldCheck(ctx.report, schema, schemaFile);
      for (const pointer of Object.keys(manifest.publicSubmit?.sets ?? {}))
        field(file, `/publicSubmit/sets/${escapeSegment(pointer)}`, pointer, { scalar: true });
    }
  },
};

export default publicSubmitCheck;
