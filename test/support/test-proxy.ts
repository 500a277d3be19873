import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig, type Config } from '../../src/config/config.js';
import { startProxy, type ProxyOptions, type RunningProxy } from '../../src/proxy/proxy-server.js';

/** A fresh temporary folder for one test's cassette. */
export function temporaryFolder(): string {
  return mkdtempSync(join(tmpdir(), 'calltape-test-'));
}

/** Starts a proxy on an OS-chosen port in front of `upstream`, storing into a temporary cassette. */
export async function startTestProxy(
  upstream: string,
  overrides: Partial<Config> = {},
  options: ProxyOptions = {},
): Promise<RunningProxy & { readonly config: Config }> {
  const config: Config = {
    ...defaultConfig,
    port: 0,
    upstream,
    logLevel: 'silent',
    cassette: join(temporaryFolder(), 'cassette.sqlite'),
    ...overrides,
  };
  const proxy = await startProxy(config, options);
  return Object.assign(proxy, { config });
}
