import { defineConfig } from 'vitest/config';
import { mergedLocales } from './vite.config.ts';
import { LongestFirstSequencer } from './tests/support/sequencer.ts';

export default defineConfig({
  // A test that imports a locale file gets the whole locale, as the app does (vite.config.ts).
  plugins: [mergedLocales()],
  test: {
    include: ['tests/**/*.test.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    // Longest files first, so that no long file runs alone at the end (tests/support/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    // expect.poll waits for a state a person would wait for (a filtered list, a status): its
    // default of 1 s is shorter than a loaded CI machine may take to get there.
    expect: { poll: { timeout: 15_000 } },
  },
});
