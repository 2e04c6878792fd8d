/**
 * Preload for dependency-cruiser: `node --import ./scripts/ts5-for-depcruise.mjs
 * node_modules/dependency-cruiser/bin/dependency-cruise.mjs …` (what `npm run check:deps` runs).
 *
 * Why: the project compiles with TypeScript 7 (the native compiler), whose `typescript` package
 * has no JavaScript compiler API; dependency-cruiser parses `.ts`/`.tsx` with that API and
 * accepts only TypeScript < 7. TypeScript 5 is installed beside it under the alias `typescript5`
 * (a dev dependency); this preload hands it to dependency-cruiser and to nothing else, so
 * `tsc` and every other tool keep TypeScript 7.
 *
 * dependency-cruiser reaches `typescript` two ways, so both are redirected:
 * - `require('typescript/package.json')` (its version check) — CommonJS resolution;
 * - `await import('typescript')` (the parser itself) — ES module resolution, which the
 *   CommonJS hook never sees; a `module.register` resolve hook covers it.
 */
import Module, { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const CRUISER = /[\\/]node_modules[\\/]dependency-cruiser[\\/]/;

/** `typescript` or `typescript/…` → the same path in `typescript5`; anything else unchanged. */
const toTypescript5 = (request) =>
  request === 'typescript' || request.startsWith('typescript/')
    ? request.replace(/^typescript/, 'typescript5')
    : request;

/**
 * ES module resolve hook (runs in Node's loader thread): redirects `typescript` imported by
 * dependency-cruiser's own files.
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {Function} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const fromCruiser = context.parentURL !== undefined && CRUISER.test(context.parentURL);
  return nextResolve(fromCruiser ? toTypescript5(specifier) : specifier, context);
}

if (isMainThread) {
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function resolveTypescript5(request, parent, ...rest) {
    const fromCruiser = typeof parent?.filename === 'string' && CRUISER.test(parent.filename);
    return resolveFilename.call(this, fromCruiser ? toTypescript5(request) : request, parent, ...rest);
  };
  register(import.meta.url);
}
