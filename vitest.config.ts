import { defineConfig } from 'vitest/config';
import { mergedLocales, screenIndex } from './vite.config.ts';
import { formValidators } from './scripts/form-validators.ts';
import { LongestFirstSequencer } from './tests/support/sequencer.ts';

/**
 * Files that start an app (contract, browser): they import the whole server (~4 s per file on
 * a loaded machine, the most of the gaps between files in CI) and share nothing at module
 * level, so one worker runs them one after another on one module graph (`isolate: false`).
 * Each file still starts and closes its own apps and browser, and every test file is evaluated
 * afresh; what is shared is the imported modules (the server has no module-level state per app).
 */
const APP_FILES = ['tests/contract/**/*.test.ts', 'tests/e2e/**/*.test.ts'];

/** What both projects have alike. */
const common = {
  testTimeout: 120_000,
  hookTimeout: 180_000,
  pool: 'forks' as const,
  // expect.poll waits for a state a person would wait for (a filtered list, a status): its
  // default of 1 s is shorter than a loaded CI machine may take to get there.
  expect: { poll: { timeout: 15_000 } },
};

export default defineConfig({
  // A test that imports a locale file gets the whole locale, as the app does (vite.config.ts),
  // and the screens' index its entries.
  plugins: [mergedLocales(), screenIndex()],
  test: {
    // Runs once for the whole run (the root project's); both projects inherit what it provides.
    globalSetup: ['tests/support/global-setup.ts'],
    maxWorkers: 2,
    // Longest files first, so that no long file runs alone at the end (tests/support/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        plugins: [mergedLocales(), screenIndex()],
        test: { ...common, name: 'apps', include: APP_FILES, isolate: false },
      },
      {
        // Unit and component tests: light imports, module mocks (vi.mock) — isolated per file.
        // `<definition>.json?form-validator` is the build's generated validator here too.
        plugins: [mergedLocales(), screenIndex(), formValidators()],
        test: {
          ...common,
          name: 'units',
          include: ['tests/**/*.test.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: [...APP_FILES, '**/node_modules/**'],
        },
      },
    ],
  },
});
