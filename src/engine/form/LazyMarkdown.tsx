/**
 * rjsf's `Markdown` (markdown-to-jsx), loaded when first shown. @rjsf/core renders it only
 * for a definition's mistakes (an unsupported field, an object it cannot read), rjsf's own
 * file widget (the portal has its own) and descriptions with `enableMarkdownInDescription`
 * or `enableMarkdownInHelp` (no definition sets them) — yet every form route loaded the whole
 * parser with rjsf. The web build points @rjsf/core's import here (vite.config.ts,
 * `lazyRjsfMarkdown`); the text shows as plain words until the parser is in.
 */
import { lazy, Suspense, type ComponentProps } from 'react';
import type { Markdown as Parsed } from 'markdown-to-jsx/react';

const Loaded = lazy(async () => ({ default: (await import('markdown-to-jsx/react')).Markdown }));

export function Markdown(props: ComponentProps<typeof Parsed>) {
  return (
    <Suspense fallback={<span>{typeof props.children === 'string' ? props.children : null}</span>}>
      <Loaded {...props} />
    </Suspense>
  );
}
