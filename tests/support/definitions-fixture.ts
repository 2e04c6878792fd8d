import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../src/server/app.ts';

/**
 * A copy of the repository's definitions (schemas/, workflows/, screens/, the locales) in a
 * temporary folder, for a test that changes them between two starts of a server
 * (`buildApp({ root })`) without touching the real ones.
 */
export interface DefinitionsFixture {
  root: string;
  /** Reads a definition file of the copy as JSON. */
  read<T = any>(file: string): T; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Writes a file of the copy: JSON for an object, as is for a string. */
  write(file: string, content: unknown): void;
  /** Changes a JSON file of the copy in place. */
  edit<T = any>(file: string, change: (json: T) => void): void; // eslint-disable-line @typescript-eslint/no-explicit-any
  /**
   * Renames a field of an entity in its manifest, schema, form and grid: every JSON string that
   * is exactly the name or its pointer (i18n keys, which only contain it, stay).
   */
  renameField(entity: string, from: string, to: string): void;
  /** The forms that fill fields from a lookup (`ui:options.fill`) read the field `from` as `to`. */
  renameLookupSource(from: string, to: string): void;
  remove(): void;
}

/** Copies the definitions of the repository into a fresh temporary root. */
export function createDefinitionsFixture(): DefinitionsFixture {
  const root = mkdtempSync(path.join(os.tmpdir(), 'portal-defs-'));
  for (const dir of ['schemas', 'workflows', 'screens', 'src/i18n/locales']) {
    mkdirSync(path.dirname(path.join(root, dir)), { recursive: true });
    cpSync(path.join(REPO_ROOT, dir), path.join(root, dir), { recursive: true });
  }
  const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
  const write = (file: string, content: unknown) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(
      path.join(root, file),
      typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`,
    );
  };
  return {
    root,
    read,
    write,
    edit(file, change) {
      const json = read(file);
      change(json);
      write(file, json);
    },
    renameField(entity, from, to) {
      const dir = path.join(root, 'schemas', entity);
      const views = existsSync(dir) ? readdirSync(dir).filter((f) => /^ui-[\w-]+\.json$/.test(f)) : [];
      for (const name of ['entity.json', 'schema.json', 'ui.json', 'grid.json', 'edit.json', ...views]) {
        const file = `schemas/${entity}/${name}`;
        const swap = (v: unknown): unknown => {
          if (v === from) return to;
          if (v === `/${from}`) return `/${to}`;
          if (Array.isArray(v)) return v.map(swap);
          if (v && typeof v === 'object')
            return Object.fromEntries(
              Object.entries(v).map(([k, x]) => [k === from ? to : k === `/${from}` ? `/${to}` : k, swap(x)]),
            );
          return v;
        };
        try {
          write(file, swap(read(file)));
        } catch {
          // The entity has no such file.
        }
      }
    },
    renameLookupSource(from, to) {
      const fix = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(fix);
        if (!v || typeof v !== 'object') return v;
        return Object.fromEntries(
          Object.entries(v).map(([k, x]) => [
            k,
            k === 'fill' && x && typeof x === 'object'
              ? Object.fromEntries(Object.entries(x).map(([f, source]) => [f, source === from ? to : source]))
              : fix(x),
          ]),
        );
      };
      // Every form of every entity: its ui.json and its views (ui-<view>.json).
      for (const entity of readdirSync(path.join(root, 'schemas'))) {
        const dir = path.join(root, 'schemas', entity);
        if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
        for (const name of readdirSync(dir).filter((f) => /^ui(-[\w-]+)?\.json$/.test(f)))
          write(`schemas/${entity}/${name}`, fix(read(`schemas/${entity}/${name}`)));
      }
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
