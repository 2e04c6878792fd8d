/**
 * `npm run check` rule of the `comments` capability: comments are read on the record page, so
 * an entity that declares them needs a detail screen (else nobody sees its threads).
 */
import type { CheckRule } from '../../../definitions/check/context.ts';

const commentsCheck: CheckRule = {
  name: 'comments',
  run(ctx) {
    for (const { manifest, file } of ctx.entityList) {
      if (!manifest.comments) continue;
      const id = manifest.id;
      const hasDetail = ctx.screens.some(({ screen }) => screen.entity === id && screen.kind === 'detail');
      if (!hasDetail)
        ctx.report(
          file,
          '/comments',
          `entity "${id}" declares comments but has no detail screen (kind "detail") to show them on`,
        );
    }
  },
};

export default commentsCheck;
