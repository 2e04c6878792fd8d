/**
 * `npm run check` rule of the `documents` capability: each kind is named once per entity and
 * once per alias path across entities, and its title is a known text.
 */
import type { CheckRule } from '../../../definitions/check/context.ts';

const documentsCheck: CheckRule = {
  name: 'documents',
  run(ctx) {
    const aliases = new Map<string, string>();
    for (const { manifest, file } of ctx.entityList) {
      const kinds = manifest.documents?.kinds ?? [];
      const seen = new Set<string>();
      kinds.forEach((k, i) => {
        const at = `/documents/kinds/${i}`;
        if (seen.has(k.kind)) ctx.report(file, `${at}/kind`, `the document kind "${k.kind}" is declared twice`);
        seen.add(k.kind);
        ctx.useKey(file, `${at}/titleKey`, k.titleKey);
        if (k.alias) {
          const other = aliases.get(k.alias);
          if (other) ctx.report(file, `${at}/alias`, `the path "${k.alias}" is already the alias of ${other}`);
          aliases.set(k.alias, `${manifest.id} ${k.kind}`);
        }
      });
    }
  },
};

export default documentsCheck;
