import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
    // expect.poll waits for a state a person would wait for (a filtered list, a status): its
    // default of 1 s is shorter than a loaded CI machine may take to get there.
    expect: { poll: { timeout: 15_000 } },
  },
});
