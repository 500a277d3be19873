import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Integration tests start real servers and child processes; give them room on a 2-core CI box.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Most of an integration test's time is spent waiting on the processes and servers it
    // started, so two files at once keep both cores busy (the default is one worker on 2 cores).
    maxWorkers: 2,
    // Test files share no state through modules (each starts its own servers on port 0 and
    // writes into its own temporary folders), so a worker keeps its loaded modules between files
    // instead of importing the SDKs and calltape again for each of them.
    isolate: false,
    // It imports its schema JSON without an import attribute, which only a bundler accepts.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
    setupFiles: ['test/support/worker-environment.ts'],
    globalSetup: ['test/support/run-temporary-root.ts'],
  },
});
