import { tmpdir } from 'node:os';
import { join } from 'node:path';

// CLI runs note what they did with cassettes in a runs database: never the clone's own, and one
// per worker process, so test files running side by side never see each other's runs.
process.env['CALLTAPE_RUNS_DB'] = join(tmpdir(), `calltape-vitest-runs-${process.pid}.sqlite`);
