/**
 * `npm run check` rule of the `publicSubmit` capability: no two manifests submit on one path
 * (each is a route of its own).
 */
import type { CheckRule } from '../../../definitions/check/context.ts';

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
  },
};

export default publicSubmitCheck;
