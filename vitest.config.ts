import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // At least two files at a time, not vitest's default of one on a 2-core machine (cores − 1): most files
    // wait on a server child, a watcher or a browser, and one file at a time left a core idle for
    // much of the run (CI: npm test 559 s of a 933 s job, against its 15-minute limit). The tests
    // wait for conditions with generous deadlines and assert no timing, so the load they add to
    // each other is what "pass on a busy machine" already asks of them.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    globalSetup: ['test/helpers/global-config.ts'],
  },
});
