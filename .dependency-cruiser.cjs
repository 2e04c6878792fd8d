/**
 * Architecture rules as code (`npm run check:deps`, part of `npm run check`): which folder of
 * `src` may import which — the table in docs/architecture.md, "What may import what" — and no
 * import cycles. Run through scripts/ts5-for-depcruise.mjs: dependency-cruiser parses
 * TypeScript with TypeScript 5's compiler API, which TypeScript 7 no longer has.
 *
 * Tests beside the code (`*.test.ts[x]` in `src`) obey the same rules as the folder they sit
 * in: a test that needs another layer (an engine test that needs the server) belongs in tests/.
 *
 * Decided, not an exception: `src/shared` may import `src/generated` with `import type` only.
 * The generated types are derived from schemas/ by codegen (house rule: types are never written
 * twice); `import type` is erased when compiled, and src/generated imports nothing (a rule
 * below), so it can neither pull another layer into shared nor close a cycle.
 *
 * There are no exceptions: a rule that needs one means a module sits in the wrong folder.
 */
/** An npm package, also when the cruise runs below the repository (the rules' own test does). */
const NPM = '(^|/)node_modules/';

/** What src/shared may import: itself, npm packages, and the generated types (next rule: types only). */
const SHARED_MAY_IMPORT = ['^src/shared/', NPM, '^src/generated/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle in src: two modules that need each other are one concept or need a third module.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'engine-not-to-app',
      severity: 'error',
      comment: 'The engine renders screens; the shell (src/app) composes it, never the other way round.',
      from: { path: '^src/engine/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'shared-only-shared',
      severity: 'error',
      comment:
        'src/shared is isomorphic: it may import npm packages and Node built-ins, nothing else in the repository.',
      from: { path: '^src/shared/' },
      to: { pathNot: SHARED_MAY_IMPORT, dependencyTypesNot: ['core'] },
    },
    {
      name: 'shared-generated-types-only',
      severity: 'error',
      comment: 'src/shared may use the generated types (import type), never a value from src/generated.',
      from: { path: '^src/shared/' },
      to: { path: '^src/generated/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'generated-imports-nothing',
      severity: 'error',
      comment:
        'src/generated is codegen output: types derived from schemas/, importing nothing else in the repository.',
      from: { path: '^src/generated/' },
      to: { pathNot: ['^src/generated/', NPM], dependencyTypesNot: ['core'] },
    },
    {
      name: 'definitions-not-to-runtime',
      // The manifest capabilities' check rules live in their folders under src/server and are
      // composed there (src/server/capabilities/checks.ts), not imported by src/definitions.
      severity: 'error',
      comment:
        'src/definitions loads and checks definitions for both sides: it may import shared and generated, never the server or the browser side.',
      from: { path: '^src/definitions/' },
      to: { path: '^src/(server|client|engine|app)/' },
    },
    {
      name: 'server-not-to-browser',
      severity: 'error',
      comment: 'The server never imports the browser side (src/client, src/engine, src/app).',
      from: { path: '^src/server/' },
      to: { path: '^src/(client|engine|app)/' },
    },
    {
      name: 'browser-not-to-server',
      severity: 'error',
      comment: 'The browser side (src/client, src/engine, src/app) never imports the server.',
      from: { path: '^src/(client|engine|app)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'client-not-to-ui',
      severity: 'error',
      comment: 'src/client is the data layer the screens stand on: it never imports the engine or the shell.',
      from: { path: '^src/client/' },
      to: { path: '^src/(engine|app)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import the cruiser cannot resolve is invisible to every rule above: make it resolvable.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Only the project's own modules are followed; an npm package is a leaf.
    doNotFollow: { path: NPM },
    // Type-only imports count: they couple layers as much as value imports do.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      // ESM-only packages (@rjsf/*, apexcharts, …) resolve through their `exports` field.
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
