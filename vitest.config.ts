import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Integration tests start real servers and child processes; give them room on a 2-core CI box.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CLI runs note what they did with cassettes in the runs database: never the clone's own.
    env: { CALLTAPE_RUNS_DB: join(tmpdir(), `calltape-vitest-runs-${process.pid}.sqlite`) },
  },
});
