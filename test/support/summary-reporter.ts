/**
 * Prints the closing line CI recognises, `N passed, N failed, N skipped`, after vitest's own
 * summary. Unhandled errors and modules that failed to load count as failures.
 */
import type { Reporter, TestModule } from 'vitest/node';

type RunEnd = NonNullable<Reporter['onTestRunEnd']>;

export default class SummaryReporter implements Reporter {
  onTestRunEnd: RunEnd = (modules: ReadonlyArray<TestModule>, unhandledErrors) => {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const mod of modules) {
      if (mod.state() === 'failed' && mod.errors().length > 0) failed += 1;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  };
}
