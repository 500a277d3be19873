import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envNames } from '../src/config/load-config.js';
import { renderSchemaReference, type SchemaNode } from '../src/config/schema-reference.js';
import { packageRoot } from '../src/package-root.js';

/** The schemas in the order a user meets them: the proxy's configuration first. */
const order = [
  'proxy.config.schema.json',
  'suite.schema.json',
  'test-case.schema.json',
  'mocks.schema.json',
  'policies.schema.json',
  'test-report.schema.json',
];

/** The configuration reference as it should be committed, from the schemas in config/. */
export function configReference(): string {
  const folder = join(packageRoot, 'config');
  const files = readdirSync(folder).filter((name) => name.endsWith('.schema.json'));
  const sorted = [
    ...order.filter((name) => files.includes(name)),
    ...files.filter((name) => !order.includes(name)).sort(),
  ];
  const proxyEnv = new Map(
    Object.entries(envNames).map(([pointer, name]) => [
      pointer.slice(1).replaceAll('/', '.'),
      name,
    ]),
  );
  return renderSchemaReference(
    sorted.map((file) => ({
      file,
      schema: JSON.parse(readFileSync(join(folder, file), 'utf8')) as SchemaNode,
      ...(file === 'proxy.config.schema.json' ? { env: proxyEnv } : {}),
    })),
  );
}
