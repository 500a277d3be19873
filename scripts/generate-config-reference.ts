/**
 * `npm run docs:config`: writes docs/reference/configuration.md from config/*.schema.json.
 * test/config-reference.test.ts fails when the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/package-root.js';
import { configReference } from './config-reference.js';

const target = join(packageRoot, 'docs/reference/configuration.md');
writeFileSync(target, configReference());
process.stdout.write(`wrote ${target}\n`);
