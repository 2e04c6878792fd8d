/**
 * The one merge of the interface texts (src/definitions/locales.ts): the shell files and every
 * entity's and machine's file become one tree per locale, a key written twice is an error
 * naming both files, and the web build's reader gives the same trees as the server's registry.
 */
import { describe, expect, it } from 'vitest';
import { homeOfKey, mergeLocales, textPointer } from '../../src/definitions/locales.ts';
import { readLocales } from '../../src/definitions/locale-files.ts';
import { loadDefinitionSources } from '../../src/definitions/sources.ts';
import { createDefinitionRegistry } from '../../src/definitions/registry.ts';
import { REPO_ROOT } from '../../src/server/app.ts';

const part = (file: string, en: unknown, rest: Record<string, unknown> = {}) => ({
  file,
  json: { en, ru: {}, uz: {}, uzCyrillic: {}, ...rest },
});

describe('mergeLocales', () => {
  it("deep-merges the shell with the entities' and machines' trees, remembering where each text is", () => {
    const merged = mergeLocales({ en: { app: { title: 'Portal' }, screen: { home: { title: 'Home' } } } }, [
      part('schemas/gadget/i18n.json', {
        entity: { gadget: { title: 'Gadgets' } },
        screen: { 'gadget-list': { title: 'All' } },
      }),
      part('workflows/gadget-flow.i18n.json', { workflow: { 'gadget-flow': { states: { DRAFT: 'Draft' } } } }),
    ]);
    expect(merged.problems).toEqual([]);
    expect(merged.locales.en).toEqual({
      app: { title: 'Portal' },
      screen: { home: { title: 'Home' }, 'gadget-list': { title: 'All' } },
      entity: { gadget: { title: 'Gadgets' } },
      workflow: { 'gadget-flow': { states: { DRAFT: 'Draft' } } },
    });
    expect(merged.origins.en.get('screen.gadget-list.title')).toBe('schemas/gadget/i18n.json');
    expect(merged.origins.en.get('screen.home.title')).toBe('src/i18n/locales/en.json');
  });

  it('refuses a text written twice, or a text where another file has a group, naming both files', () => {
    const merged = mergeLocales({ en: { entity: { gadget: { title: 'Old' } } } }, [
      part('schemas/gadget/i18n.json', { entity: { gadget: { title: 'New', field: 'flat' } } }),
      part('schemas/other/i18n.json', { entity: { gadget: { field: { name: 'Name' } } } }),
    ]);
    expect(merged.problems).toEqual([
      {
        file: 'schemas/gadget/i18n.json',
        pointer: '/en/entity/gadget/title',
        message:
          'key "entity.gadget.title" is defined twice: here and in src/i18n/locales/en.json#/entity/gadget/title',
      },
      {
        file: 'schemas/other/i18n.json',
        pointer: '/en/entity/gadget/field',
        message:
          'key "entity.gadget.field" is defined twice: here and in schemas/gadget/i18n.json#/en/entity/gadget/field',
      },
    ]);
    // The first definition wins, so the app still has a text.
    expect(merged.locales.en.entity).toEqual({ gadget: { title: 'Old', field: 'flat' } });
  });

  it('names a language that is missing or unknown, and a value that is not text', () => {
    const merged = mergeLocales({}, [
      { file: 'schemas/gadget/i18n.json', json: { en: { entity: { gadget: { n: 1 } } }, ru: {}, uz: {}, fr: {} } },
    ]);
    expect(merged.problems.map((p) => `${p.file}#${p.pointer}: ${p.message}`)).toEqual([
      'schemas/gadget/i18n.json#/en/entity/gadget/n: locale values must be strings or objects',
      'schemas/gadget/i18n.json#/fr: "fr" is not a language: use uz, uzCyrillic, ru, en',
      'schemas/gadget/i18n.json#: the uzCyrillic texts are missing: add "uzCyrillic": { ... }',
    ]);
    expect(merged.absent.uzCyrillic.has('schemas/gadget/i18n.json')).toBe(true);
  });

  it('knows where a key belongs', () => {
    const known = {
      entities: new Set(['gadget']),
      machines: new Set(['gadget-flow']),
      screenEntity: new Map([['gadget-list', 'gadget']]),
    };
    expect(homeOfKey('entity.gadget.title', 'ru', known)).toBe('schemas/gadget/i18n.json');
    expect(homeOfKey('screen.gadget-list.title', 'ru', known)).toBe('schemas/gadget/i18n.json');
    expect(homeOfKey('workflow.gadget-flow.states.DRAFT', 'ru', known)).toBe('workflows/gadget-flow.i18n.json');
    expect(homeOfKey('workflow.payload.reason', 'ru', known)).toBe('src/i18n/locales/ru.json');
    expect(homeOfKey('screen.home.title', 'ru', known)).toBe('src/i18n/locales/ru.json');
    expect(textPointer('src/i18n/locales/ru.json', 'ru', 'screen.home.title')).toBe('/screen/home/title');
  });

  it("gives the web build's reader the same trees as the server's registry, without problems", async () => {
    const fromFiles = readLocales(REPO_ROOT);
    expect(fromFiles.problems).toEqual([]);
    const registry = createDefinitionRegistry((await loadDefinitionSources(REPO_ROOT)).sources);
    expect(fromFiles.locales).toEqual(registry.locales);
    // The shell keeps no global state labels: one label per state, the machine's.
    expect(Object.keys(registry.locales.en)).not.toContain('status');
  });
});
