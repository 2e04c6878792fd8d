import { describe, expect, it } from 'vitest';
import { getDefaultRegistry } from '@rjsf/core';
import { portalWidgets } from './index.ts';
import { isKnownWidgetName, portalWidgetNames, rjsfComponentWidgetNames, rjsfWidgetNames } from './names.ts';

describe('widget names (what npm run check accepts as ui:widget)', () => {
  it('are the registry keys: every portal name is registered, every registered name is known', () => {
    for (const name of portalWidgetNames) expect(portalWidgets, name).toHaveProperty([name]);
    for (const name of Object.keys(portalWidgets)) expect(isKnownWidgetName(name), name).toBe(true);
  });

  it("follow rjsf: its default registry's widget names, and its short names", () => {
    expect([...rjsfComponentWidgetNames].sort()).toEqual(Object.keys(getDefaultRegistry().widgets).sort());
    for (const name of rjsfWidgetNames) expect(isKnownWidgetName(name), name).toBe(true);
    expect(isKnownWidgetName('fancy')).toBe(false);
    expect(isKnownWidgetName('constructor')).toBe(false);
  });
});
