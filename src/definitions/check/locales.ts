/**
 * `npm run check` rule for the texts, run last. The shell files (`src/i18n/locales/<locale>.json`)
 * and every entity's `schemas/<id>/i18n.json` and machine's `workflows/<machine>.i18n.json` are
 * merged as the server and the web build merge them (../locales.ts): a key written twice is
 * reported with both files. Each per-entity file holds only its own keys (`entity.<id>.…` and
 * `screen.<screen>.…` of the entity's screens), each machine's only `workflow.<machine>.…`.
 * A key present in one locale is present in all (reported in the file and at the pointer
 * where it is missing); every i18n key the other rules met (`ctx.keysUsed`) exists in every
 * locale (a group key, such as a page's `contentKey`, as a prefix of some text).
 */
import { LOCALES, type Locale } from '../../shared/locales.ts';
import { homeOfKey, localePartOwner, localeSourcesOf, mergeLocales, shellLocaleFile, textPointer } from '../locales.ts';
import type { CheckRule } from './context.ts';

/** Locales: present, merged without duplicates, each key in its own file, alike in keys, and holding every key used. */
export const localesRule: CheckRule = {
  name: 'locales',
  run(ctx) {
    const { report } = ctx;
    const merged = mergeLocales(...localeSourcesOf(ctx.sources));
    for (const p of merged.problems) report(p.file, p.pointer, p.message);
    for (const locale of LOCALES) {
      if (!ctx.sources.has(shellLocaleFile(locale))) report(shellLocaleFile(locale), '', 'locale file is missing');
    }

    // Each per-entity and per-machine file holds only its owner's keys.
    const known = {
      entities: new Set(ctx.entities.keys()),
      machines: new Set(ctx.machines.keys()),
      screenEntity: new Map(ctx.screens.flatMap(({ screen }) => (screen.entity ? [[screen.id, screen.entity]] : []))),
    };
    const orphans = new Set<string>();
    for (const file of ctx.sources.keys()) {
      const owner = localePartOwner(file);
      if (owner && 'machine' in owner && !known.machines.has(owner.machine)) {
        report(
          file,
          '',
          `texts of machine "${owner.machine}", but workflows/${owner.machine}.machine.json does not exist`,
        );
        orphans.add(file);
      }
      // A folder without a valid manifest is reported by the entity rule, once, not per key here.
      if (owner && 'entity' in owner && !known.entities.has(owner.entity)) orphans.add(file);
    }
    for (const locale of LOCALES) {
      for (const [key, file] of merged.origins[locale]) {
        if (!localePartOwner(file) || orphans.has(file)) continue;
        const home = homeOfKey(key, locale, known);
        if (home === file) continue;
        const own = file.startsWith('workflows/')
          ? `workflow.${file.slice('workflows/'.length, -'.i18n.json'.length)}.*`
          : `entity.${file.split('/')[1]}.* and screen.<screen>.* of its screens`;
        report(
          file,
          textPointer(file, locale, key),
          `key "${key}" does not belong here: this file holds only ${own}; write it in ${home}`,
        );
      }
    }

    // Alike in keys: a key missing in one locale is reported where it should be written.
    const leafSets = new Map<Locale, ReadonlySet<string>>(
      LOCALES.filter((l) => ctx.sources.has(shellLocaleFile(l))).map((l) => [l, new Set(merged.origins[l].keys())]),
    );
    const allKeys = new Set([...leafSets.values()].flatMap((s) => [...s]));
    for (const key of [...allKeys].sort()) {
      const missing = [...leafSets].filter(([, s]) => !s.has(key)).map(([l]) => l);
      if (!missing.length || missing.length === leafSets.size) continue;
      const present = [...leafSets.keys()].find((l) => !missing.includes(l))!;
      const where = merged.origins[present].get(key)!;
      for (const l of missing) {
        const file = localePartOwner(where) ? where : shellLocaleFile(l);
        // A per-entity file without the language at all is one problem, reported by the merge.
        if (merged.absent[l].has(file)) continue;
        report(file, textPointer(file, l, key), `key "${key}" exists in other locales but not here`);
      }
    }

    // Every key the definitions use, in every locale.
    for (const { file, pointer, key, group } of ctx.keysUsed) {
      const missing = [...leafSets]
        .filter(([, s]) => !s.has(key) && !(group && [...s].some((leaf) => leaf.startsWith(`${key}.`))))
        .map(([l]) => l);
      if (!missing.length) continue;
      const home = homeOfKey(key, missing[0]!, known);
      report(
        file,
        pointer,
        `i18n key "${key}" is missing in ${missing.join(', ')} (write it in ${home}#${textPointer(home, missing[0]!, key)})`,
      );
    }
  },
};
