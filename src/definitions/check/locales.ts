/**
 * `npm run check` rule for the locales (`src/i18n/locales/<locale>.json`), run last: each of
 * the four exists and holds only strings and objects; a key present in one locale is present
 * in all; every i18n key the other rules met (`ctx.keysUsed`) exists in every locale (a
 * group key, such as a page's `contentKey`, as a prefix of some text).
 */
import { LOCALES } from '../../shared/locales.ts';
import { escape, type CheckRule, type Report } from './context.ts';

function collectLeaves(file: string, prefix: string, node: unknown, into: Set<string>, report: Report): void {
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') into.add(key);
    else if (v && typeof v === 'object' && !Array.isArray(v)) collectLeaves(file, key, v, into, report);
    else report(file, `/${key.split('.').map(escape).join('/')}`, 'locale values must be strings or objects');
  }
}

/** Locales: present, alike in keys, and holding every key the definitions use. */
export const localesRule: CheckRule = {
  name: 'locales',
  run(ctx) {
    const { report } = ctx;
    const leafSets = new Map<string, Set<string>>();
    for (const locale of LOCALES) {
      const file = `src/i18n/locales/${locale}.json`;
      const data = ctx.sources.get(file)?.json;
      if (!data || typeof data !== 'object') {
        report(file, '', 'locale file is missing');
        continue;
      }
      const leaves = new Set<string>();
      collectLeaves(file, '', data, leaves, report);
      leafSets.set(locale, leaves);
    }
    const allKeys = new Set([...leafSets.values()].flatMap((s) => [...s]));
    for (const key of [...allKeys].sort()) {
      const missing = [...leafSets].filter(([, s]) => !s.has(key)).map(([l]) => l);
      if (missing.length && missing.length < leafSets.size) {
        for (const l of missing)
          report(
            `src/i18n/locales/${l}.json`,
            `/${key.split('.').map(escape).join('/')}`,
            `key "${key}" exists in other locales but not here`,
          );
      }
    }
    for (const { file, pointer, key, group } of ctx.keysUsed) {
      const missing = [...leafSets]
        .filter(([, s]) => !s.has(key) && !(group && [...s].some((leaf) => leaf.startsWith(`${key}.`))))
        .map(([l]) => l);
      if (missing.length) report(file, pointer, `i18n key "${key}" is missing in ${missing.join(', ')}`);
    }
  },
};
