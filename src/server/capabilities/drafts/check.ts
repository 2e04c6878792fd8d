/**
 * `npm run check` rule of the `drafts` capability: a form or wizard screen that offers drafts
 * (`options.drafts`) is for an entity whose manifest allows them (`"drafts": true`), since
 * only those have the draft routes.
 */
import type { CheckRule } from '../../../definitions/check/context.ts';

const draftsCheck: CheckRule = {
  name: 'drafts',
  run(ctx) {
    for (const { file, screen } of ctx.screens) {
      const options = screen.options as { drafts?: boolean } | undefined;
      if (options?.drafts && screen.entity && !ctx.entities.get(screen.entity)?.manifest.drafts) {
        ctx.report(
          file,
          '/options/drafts',
          `entity "${screen.entity}" does not allow drafts (manifest "drafts": true)`,
        );
      }
    }
  },
};

export default draftsCheck;
