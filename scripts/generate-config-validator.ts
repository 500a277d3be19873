/**
 * `npm run config:validator`: writes src/config/proxy-config-validator.generated.ts from
 * config/proxy.config.schema.json. test/config-validator.test.ts fails when the committed file
 * differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/package-root.js';
import { configValidatorSource } from './config-validator-source.js';

const target = join(packageRoot, 'src/config/proxy-config-validator.generated.ts');
writeFileSync(target, configValidatorSource());
process.stdout.write(`wrote ${target}\n`);
