import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { INDEX_OPTIONS, screenEntry } from './screen-index.ts';
import type { ScreenDefinition } from '../generated/meta.ts';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../screens');
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as ScreenDefinition);

describe("the screens' index", () => {
  it('keeps what every page reads of a screen and only the options other screens read', () => {
    const panelsOf = (s: { options?: object }) => (s.options as { panels?: unknown[] } | undefined)?.panels;
    const dashboard = all.find((s) => s.kind === 'dashboard' && panelsOf(s)?.length)!;
    const entry = screenEntry(dashboard);
    expect(entry).toMatchObject({
      id: dashboard.id,
      route: dashboard.route,
      kind: 'dashboard',
      titleKey: dashboard.titleKey,
      permission: dashboard.permission,
    });
    expect(entry.menu).toEqual(dashboard.menu);
    expect(panelsOf(entry)).toBeUndefined();
    // The definition itself is left whole (the route's own copy).
    expect(panelsOf(dashboard)?.length).toBeGreaterThan(0);
  });

  it('keeps the index options of every screen that has them, and leaves a screen without options as it is', () => {
    for (const screen of all) {
      const entry = screenEntry(screen);
      const kept = Object.fromEntries(
        Object.entries(screen.options ?? {}).filter(([k]) => (INDEX_OPTIONS as readonly string[]).includes(k)),
      );
      expect(entry.options ?? {}, screen.id).toEqual(kept);
      const { options: _a, ...rest } = screen;
      const { options: _b, ...entryRest } = entry;
      expect(entryRest, screen.id).toEqual(rest);
    }
    const plain = all.find((s) => !s.options)!;
    expect(screenEntry(plain)).toBe(plain);
  });

  it('is about half the bytes of the whole screens', () => {
    const bytes = (x: unknown) => JSON.stringify(x).length;
    const whole = all.reduce((n, s) => n + bytes(s), 0);
    const index = all.reduce((n, s) => n + bytes(screenEntry(s)), 0);
    expect(index).toBeLessThan(whole * 0.6);
  });
});
