import { defineConfig } from 'vitest/config';

/** Tiers: unit (pure core, Node), dom (happy-dom), integration (real APy), e2e (built extension in Chromium). */
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        // test/support/local-only.ts: fetch reaches 127.0.0.1 only.
        test: { name: 'unit', environment: 'node', include: ['test/unit/**/*.test.ts', 'src/**/*.test.ts'], setupFiles: ['test/support/local-only.ts'] },
      },
      {
        extends: true,
        test: { name: 'dom', environment: 'happy-dom', include: ['test/dom/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['test/integration/**/*.test.ts'],
          setupFiles: ['test/support/local-only.ts'],
          globalSetup: ['test/support/apy-setup.ts', 'test/support/server-build-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/apy-setup.ts', 'test/support/build-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // What a user waits for in a real browser, on a machine as busy as CI's: not vitest's
          // 1 s (the popup's language list from APy took longer in one CI run).
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
