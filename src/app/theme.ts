import { createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-components';

/** The committee's blue, as a Fluent brand ramp (10 = darkest, 160 = lightest). */
const committeeBlue: BrandVariants = {
  10: '#020f1d',
  20: '#061a30',
  30: '#08264a',
  40: '#0a3160',
  50: '#0b3d77',
  60: '#0b4f8a',
  70: '#135c9b',
  80: '#1f6aab',
  90: '#2f79ba',
  100: '#4388c6',
  110: '#5997d0',
  120: '#70a6d9',
  130: '#88b6e1',
  140: '#a1c6e9',
  150: '#bbd6f0',
  160: '#d5e6f7',
};

/** The one theme of the portal. */
export const portalTheme: Theme = { ...createLightTheme(committeeBlue), colorBrandForeground1: committeeBlue[70] };

/** The committee's accent (gold of the state emblem), for highlights only. */
export const ACCENT = '#c9a227';
