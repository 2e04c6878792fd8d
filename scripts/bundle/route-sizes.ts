/**
 * What each route of the web app costs a visitor, read from the build's manifest
 * (`dist/web/.vite/manifest.json`): the gzip size of the JavaScript a route needs before it
 * runs. One measurement for the benchmark that prints it (scripts/bench/bundle.ts) and the
 * check that fails when a route is over its budget (scripts/check-budgets.ts). Pure: the
 * manifest and the size of a file come in, so a test can feed a made-up build.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of Vite's build manifest (only what is read here). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** A route's cost: gzip bytes of its JavaScript (and CSS), and of the chunks only it loads. */
export interface RouteSize {
  /** `first-visit` (the entry, the home screen's kind, the default locale) or a screen kind. */
  route: string;
  js: number;
  css: number;
  /** The kind's own chunks, without the entry's. */
  own: number;
  /** Every file the route loads before it runs. */
  files: string[];
}

/**
 * The screen kinds measured, by their component file under src/engine (a kind's route loads
 * the entry, the kind's chunk and its static imports, and the default locale).
 */
export const MEASURED_KINDS: Readonly<Record<string, string>> = {
  list: 'list/ListScreen',
  form: 'form/FormScreen',
  wizard: 'wizard/WizardScreen',
  detail: 'detail/DetailScreen',
  lookup: 'lookup/LookupScreen',
  page: 'page/PageScreen',
  signin: 'signin/SignInScreen',
  dashboard: 'dashboard/DashboardScreen',
  flow: 'flow/FlowScreen',
  profile: 'profile/ProfileScreen',
};

/** The route name of a first visit to `/`. */
export const FIRST_VISIT = 'first-visit';

/** The manifest key of a source file (the key itself, or an entry whose `src` it is). */
export function keyOf(manifest: Manifest, src: string): string | undefined {
  return Object.keys(manifest).find((k) => k === src || manifest[k]!.src === src);
}

/** Every file a chunk needs before it runs: itself, its static imports (recursively), its CSS. */
export function closure(manifest: Manifest, key: string | undefined, into = new Set<string>()): Set<string> {
  const chunk = key === undefined ? undefined : manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const imp of chunk.imports ?? []) closure(manifest, imp, into);
  return into;
}

/**
 * The first visit to `/` and each measured kind's route, in gzip bytes.
 * @param gzipOf the gzip size of a built file (a path relative to the build's root)
 */
export function measureRoutes(manifest: Manifest, gzipOf: (file: string) => number): RouteSize[] {
  const sum = (files: Set<string>, ext: string) =>
    [...files].filter((f) => f.endsWith(ext)).reduce((a, f) => a + gzipOf(f), 0);
  const entry = closure(manifest, 'index.html');
  // main.tsx imports the app's second graph dynamically (evaluated in its own task) but on
  // every page: it is part of the entry's cost.
  closure(manifest, keyOf(manifest, 'src/app/boot.tsx'), entry);
  const locale = keyOf(manifest, 'src/i18n/locales/uzCyrillic.json');
  const route = (name: string, kindSrc: string): RouteSize | undefined => {
    const key = keyOf(manifest, kindSrc);
    if (!key) return undefined;
    const files = closure(manifest, key, new Set(entry));
    closure(manifest, locale, files);
    return {
      route: name,
      js: sum(files, '.js'),
      css: sum(files, '.css'),
      own: sum(closure(manifest, key), '.js'),
      files: [...files],
    };
  };
  const sizes: RouteSize[] = [];
  const first = route(FIRST_VISIT, 'src/engine/page/PageScreen.tsx');
  if (first) sizes.push(first);
  for (const [name, file] of Object.entries(MEASURED_KINDS)) {
    const size = route(name, `src/engine/${file}.tsx`);
    if (size) sizes.push(size);
  }
  return sizes;
}

/** Reads a build's manifest and measures its routes (gzip at level 9, each file once). */
export function measureBuild(outDir: string): { manifest: Manifest; sizes: RouteSize[]; gzipOf(file: string): number } {
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const gz = new Map<string, number>();
  const gzipOf = (file: string): number => {
    if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(outDir, file)), { level: 9 }).length);
    return gz.get(file)!;
  };
  return { manifest, sizes: measureRoutes(manifest, gzipOf), gzipOf };
}

/** Bytes as KB with one decimal, as every figure of the bundle is printed. */
export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
