/**
 * The built web app (dist/web) holds no JSON Schema compiler on any screen's way: ajv's
 * compiler and code generator and the draft-07 meta-schema live only in the chunk the form
 * loads for a schema the build did not know (src/engine/form/form-compiler.ts); every
 * definition's form — a transition's payload dialog too — validates with code generated at build
 * time (scripts/form-validators.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/server/app.ts';
import { browserTestsEnabled } from '../support/browser.ts';

/** Text only ajv's compiler (its code generator's errors) or the draft-07 meta-schema holds. */
const COMPILER_MARKERS = ['ajv implementation error', 'Core schema meta-schema', 'nonNegativeIntegerDefault0'];

interface Chunk {
  file: string;
  src?: string;
  imports?: string[];
}

describe.skipIf(!browserTestsEnabled())('no JSON Schema compiler in the browser bundle', () => {
  const out = path.join(REPO_ROOT, 'dist/web');
  const read = () => {
    const manifest = JSON.parse(readFileSync(path.join(out, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
    /** A chunk and everything it imports statically (what runs before it). */
    const closure = (key: string, into = new Set<string>()): Set<string> => {
      const chunk = manifest[key];
      if (!chunk || into.has(chunk.file)) return into;
      into.add(chunk.file);
      for (const imp of chunk.imports ?? []) closure(imp, into);
      return into;
    };
    const withMarker = readdirSync(path.join(out, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => `assets/${f}`)
      .filter((f) => {
        const text = readFileSync(path.join(out, f), 'utf8');
        return COMPILER_MARKERS.some((m) => text.includes(m));
      });
    return { manifest, closure, withMarker };
  };

  it('no screen kind loads it: the entry, the boot graph and each kind with its static imports', () => {
    const { manifest, closure, withMarker } = read();
    // The markers are real: the fallback chunk has them (else this test would prove nothing).
    expect(withMarker.length).toBeGreaterThan(0);
    const kinds = Object.keys(manifest).filter((k) => /^src\/engine\/.*Screen\.tsx$/.test(k));
    expect(kinds).toEqual(
      expect.arrayContaining(['src/engine/form/FormScreen.tsx', 'src/engine/wizard/WizardScreen.tsx']),
    );
    for (const root of ['index.html', 'src/app/boot.tsx', ...kinds]) {
      const files = closure(root);
      expect(
        withMarker.filter((f) => files.has(f)),
        root,
      ).toEqual([]);
    }
  });

  it('only the fallback compiler chunk (and what it imports) holds it', () => {
    const { closure, withMarker } = read();
    const fallback = closure('src/engine/form/form-compiler.ts');
    expect(fallback.size).toBeGreaterThan(0);
    expect(withMarker.filter((f) => !fallback.has(f))).toEqual([]);
  });

  /** The build's generated validator modules whose key matches `pattern`, each checked free of the compiler. */
  const generatedFreeOfCompiler = (pattern: RegExp): string[] => {
    const { manifest, closure, withMarker } = read();
    const generated = Object.keys(manifest).filter((k) => pattern.test(k));
    for (const key of generated)
      expect(
        withMarker.filter((f) => closure(key).has(f)),
        key,
      ).toEqual([]);
    return generated;
  };

  it('each entity form has its generated validators, free of the compiler', () => {
    const generated = generatedFreeOfCompiler(/^schemas\/[a-z][a-z0-9-]*\/schema\.json\?form-validator$/);
    expect(generated.length).toBeGreaterThan(10);
  });

  it("each machine's transition payloads have their generated validators, free of the compiler", () => {
    const generated = generatedFreeOfCompiler(/^workflows\/[a-z][a-z0-9-]*\.machine\.json\?form-validator$/);
    expect(generated).toContain('workflows/advertising-passport.machine.json?form-validator');
    expect(generated.length).toBeGreaterThan(10);
  });
});
