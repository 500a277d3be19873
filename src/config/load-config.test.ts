import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { CalltapeError } from '../errors.js';
import { defaultConfig } from './config.js';
import { loadConfig, ollamaHostOrigin } from './load-config.js';
import { configSchemaPath } from './validate-config-layer.js';

function folderWithConfig(config: unknown): string {
  const folder = temporaryFolder();
  writeFileSync(
    join(folder, 'proxy.config.json'),
    typeof config === 'string' ? config : JSON.stringify(config),
  );
  return folder;
}

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CalltapeError);
    expect((error as CalltapeError).code).toBe('CONFIG_INVALID');
    return (error as CalltapeError).message;
  }
  throw new Error('expected a configuration error');
}

describe('loadConfig', () => {
  it('drops a trailing /v1 from the upstreams, which every agent path carries (regression: /v1/v1 was sent and its 404 recorded)', () => {
    const folder = temporaryFolder();
    const { config } = loadConfig(
      {
        upstream: 'http://127.0.0.1:9997/v1/',
        anthropicUpstream: 'https://gateway.example/anthropic/v1',
      },
      {},
      folder,
    );
    expect(config.upstream).toBe('http://127.0.0.1:9997');
    expect(config.anthropicUpstream).toBe('https://gateway.example/anthropic');
    // Only a whole trailing segment: a prefix that merely ends in "v1" is kept.
    expect(loadConfig({ upstream: 'https://host/apiv1' }, {}, folder).config.upstream).toBe(
      'https://host/apiv1',
    );
    expect(loadConfig({ upstream: 'http://v1' }, {}, folder).config.upstream).toBe('http://v1');
  });

  it('sets the wire upstreams from file, environment and flags, with the default of each', () => {
    const folder = folderWithConfig({ geminiUpstream: 'http://127.0.0.1:9001/v1/' });
    const fromFile = loadConfig({}, {}, folder).config;
    expect(fromFile.geminiUpstream).toBe('http://127.0.0.1:9001');
    expect(fromFile.ollamaUpstream).toBe('http://127.0.0.1:11434');
    expect(fromFile.vertexUpstream).toBeNull();
    expect(fromFile.azureUpstream).toBeNull();
    const fromEnv = loadConfig(
      {},
      {
        CALLTAPE_VERTEX_UPSTREAM: 'http://127.0.0.1:9002',
        CALLTAPE_OLLAMA_UPSTREAM: 'http://127.0.0.1:9003',
        CALLTAPE_AZURE_UPSTREAM: 'https://res.openai.azure.com/openai/v1/',
      },
      folder,
    ).config;
    expect(fromEnv.vertexUpstream).toBe('http://127.0.0.1:9002');
    expect(fromEnv.ollamaUpstream).toBe('http://127.0.0.1:9003');
    // Agents' Azure paths begin with /openai/: a pasted v1 base URL loses that tail.
    expect(fromEnv.azureUpstream).toBe('https://res.openai.azure.com');
    const fromFlags = loadConfig(
      {
        geminiUpstream: 'http://127.0.0.1:9004',
        azureUpstream: 'https://res.openai.azure.com/openai',
      },
      { CALLTAPE_GEMINI_UPSTREAM: 'http://127.0.0.1:9005' },
      folder,
    ).config;
    expect(fromFlags.geminiUpstream).toBe('http://127.0.0.1:9004');
    expect(fromFlags.azureUpstream).toBe('https://res.openai.azure.com');
    expect(configError(() => loadConfig({ ollamaUpstream: 'ftp://host' }, {}, folder))).toContain(
      '--ollama-upstream',
    );
  });

  it("takes the Azure and Ollama upstreams from the user's own AZURE_OPENAI_ENDPOINT and OLLAMA_HOST when calltape's settings name none", () => {
    const folder = temporaryFolder();
    const env = { AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com/', OLLAMA_HOST: 'gpu-box' };
    const config = loadConfig({}, env, folder).config;
    expect(config.azureUpstream).toBe('https://res.openai.azure.com');
    expect(config.ollamaUpstream).toBe('http://gpu-box:11434');
    // calltape's own settings win over them.
    expect(
      loadConfig({ azureUpstream: 'http://127.0.0.1:9006' }, env, folder).config.azureUpstream,
    ).toBe('http://127.0.0.1:9006');
    expect(
      loadConfig({}, { ...env, CALLTAPE_OLLAMA_UPSTREAM: 'http://127.0.0.1:9007' }, folder).config
        .ollamaUpstream,
    ).toBe('http://127.0.0.1:9007');
    // A value that is no server is ignored.
    expect(
      loadConfig({}, { AZURE_OPENAI_ENDPOINT: 'my-resource' }, folder).config.azureUpstream,
    ).toBeNull();
  });

  it("takes Bedrock's region from the AWS_REGION (else AWS_DEFAULT_REGION) calltape started with when its settings name none", () => {
    const folder = temporaryFolder();
    expect(loadConfig({}, { AWS_REGION: 'eu-west-1' }, folder).config.bedrockRegion).toBe(
      'eu-west-1',
    );
    expect(loadConfig({}, { AWS_DEFAULT_REGION: 'us-east-2' }, folder).config.bedrockRegion).toBe(
      'us-east-2',
    );
    expect(
      loadConfig({ bedrockRegion: 'ap-south-1' }, { AWS_REGION: 'eu-west-1' }, folder).config
        .bedrockRegion,
    ).toBe('ap-south-1');
    expect(loadConfig({}, { AWS_REGION: 'not a region' }, folder).config.bedrockRegion).toBeNull();
    expect(configError(() => loadConfig({ bedrockRegion: 'x' }, {}, folder))).toContain(
      '--bedrock-region',
    );
  });

  it('uses the defaults when there is no file, flag or variable', () => {
    const folder = temporaryFolder();
    const { config, file } = loadConfig({}, {}, folder);
    expect(file).toBeUndefined();
    expect(config).toEqual({
      ...defaultConfig,
      cassette: join(folder, 'recordings/calltape.sqlite'),
      shadow: {
        ...defaultConfig.shadow,
        database: join(folder, 'recordings/calltape-shadow.sqlite'),
      },
    });
  });

  it('applies flags over environment over file over defaults', () => {
    const folder = folderWithConfig({
      host: '0.0.0.0',
      port: 1111,
      upstream: 'https://file.example',
      mode: 'passthrough',
      logLevel: 'debug',
    });
    const env = {
      CALLTAPE_PORT: '2222',
      CALLTAPE_UPSTREAM: 'https://env.example/',
      CALLTAPE_MODE: 'record',
    };
    const { config } = loadConfig({ port: '3333' }, env, folder);
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 3333,
      upstream: 'https://env.example',
      mode: 'record',
      logLevel: 'debug',
    });
  });

  it('resolves a cassette path from the file against the file, and from flags against the working folder', () => {
    const folder = temporaryFolder();
    mkdirSync(join(folder, 'conf'));
    writeFileSync(
      join(folder, 'conf', 'calltape.json'),
      JSON.stringify({ cassette: 'tapes/a.sqlite' }),
    );
    expect(loadConfig({ config: 'conf/calltape.json' }, {}, folder).config.cassette).toBe(
      join(folder, 'conf', 'tapes/a.sqlite'),
    );
    expect(
      loadConfig({ config: 'conf/calltape.json', cassette: 'b.sqlite' }, {}, folder).config
        .cassette,
    ).toBe(join(folder, 'b.sqlite'));
  });

  it('names the file, the field and what was expected', () => {
    const folder = folderWithConfig({
      port: 'eighty',
      timeouts: { upstreamBodyMs: 5 },
      mode: 'replayy',
      extra: true,
    });
    const message = configError(() => loadConfig({}, {}, folder));
    const file = join(folder, 'proxy.config.json');
    expect(message).toContain(`${file}: /port: must be integer (got "eighty")`);
    expect(message).toContain(`${file}: /timeouts/upstreamBodyMs: must be >= 1000 (got 5)`);
    expect(message).toContain(
      `${file}: /mode: must be one of ["record","replay","auto","diff","passthrough"] (got "replayy")`,
    );
    expect(message).toContain(`${file}: /extra: unknown field`);
  });

  it('names the environment variable or flag that is wrong', () => {
    const folder = temporaryFolder();
    expect(configError(() => loadConfig({}, { CALLTAPE_PORT: '99999' }, folder))).toBe(
      'environment: CALLTAPE_PORT: must be <= 65535 (got 99999)',
    );
    expect(configError(() => loadConfig({ upstream: 'ftp://x' }, {}, folder))).toMatch(
      /^command line: --upstream: must match pattern/,
    );
  });

  it('reports unreadable and malformed files', () => {
    const folder = folderWithConfig('{ "port": 1, }');
    expect(configError(() => loadConfig({}, {}, folder))).toMatch(
      /proxy\.config\.json: not valid JSON/,
    );
    expect(configError(() => loadConfig({ config: 'missing.json' }, {}, folder))).toMatch(
      /missing\.json: cannot read the configuration file \(ENOENT\)/,
    );
  });

  it('reads mock settings from file, environment and flags; files resolve like the cassette', () => {
    const folder = temporaryFolder();
    mkdirSync(join(folder, 'conf'));
    writeFileSync(
      join(folder, 'conf', 'calltape.json'),
      JSON.stringify({
        mocks: { files: ['mocks/bank.yaml'], maxHiddenRounds: 4, allowTools: ['send_email'] },
      }),
    );
    const fromFile = loadConfig({ config: 'conf/calltape.json' }, {}, folder).config.mocks;
    expect(fromFile).toEqual({
      files: [join(folder, 'conf', 'mocks/bank.yaml')],
      active: null,
      mode: 'intercept',
      maxHiddenRounds: 4,
      strictTools: false,
      allowTools: ['send_email'],
    });
    const fromEnv = loadConfig(
      { config: 'conf/calltape.json' },
      { CALLTAPE_MOCKS: 'a.yaml, b.json', CALLTAPE_STRICT_TOOLS: 'true' },
      folder,
    ).config.mocks;
    expect(fromEnv).toMatchObject({
      files: [join(folder, 'a.yaml'), join(folder, 'b.json')],
      strictTools: true,
      maxHiddenRounds: 4,
    });
    expect(
      loadConfig({ mocks: 'c.yaml', strictTools: false }, { CALLTAPE_STRICT_TOOLS: '1' }, folder)
        .config.mocks,
    ).toMatchObject({ files: [join(folder, 'c.yaml')], strictTools: false });
    expect(configError(() => loadConfig({}, { CALLTAPE_STRICT_TOOLS: 'yes please' }, folder))).toBe(
      'environment: CALLTAPE_STRICT_TOOLS: must be boolean (got "yes please")',
    );
  });

  it('rejects a body pattern that is not a regular expression', () => {
    const folder = folderWithConfig({ redact: { bodyPatterns: [{ pattern: '(unclosed' }] } });
    expect(configError(() => loadConfig({}, {}, folder))).toContain(
      '/redact/bodyPatterns/0/pattern: must match format "regex"',
    );
  });

  it('rejects a body pattern or match normaliser the linear-time engine cannot run, naming the file and field', () => {
    const folder = folderWithConfig({
      redact: { bodyPatterns: [{ pattern: 'sk-[a-z]+' }, { pattern: '(?<=key=)\\w+' }] },
      match: { normalisers: ['uuid', { pattern: '(a)\\1', replacement: 'x' }] },
    });
    const message = configError(() => loadConfig({}, {}, folder));
    expect(message).toContain(
      `${join(folder, 'proxy.config.json')}: /redact/bodyPatterns/1/pattern: the regex cannot run on calltape's linear-time engine:`,
    );
    expect(message).toContain(
      `${join(folder, 'proxy.config.json')}: /match/normalisers/1/pattern: the regex cannot run on calltape's linear-time engine:`,
    );
    expect(message).not.toContain('/redact/bodyPatterns/0/');
  });

  it('keeps the schema defaults, the built-in defaults and the shipped proxy.config.json in agreement', () => {
    const schema = JSON.parse(readFileSync(configSchemaPath, 'utf8')) as {
      properties: Record<
        string,
        { default?: unknown; properties?: Record<string, { default?: unknown }> }
      >;
    };
    const defaults: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties)) {
      if (property.properties)
        defaults[key] = Object.fromEntries(
          Object.entries(property.properties).map(([name, inner]) => [name, inner.default]),
        );
      else if (key !== '$schema') defaults[key] = property.default;
    }
    expect(defaults).toEqual(defaultConfig);
    const shipped = loadConfig(
      { config: join(configSchemaPath, '../../proxy.config.json') },
      {},
      '/',
    ).config;
    expect({
      ...shipped,
      cassette: defaultConfig.cassette,
      redact: defaultConfig.redact,
      shadow: { ...shipped.shadow, database: defaultConfig.shadow.database },
    }).toEqual(defaultConfig);
  });

  it('takes shadow scoring and the admin token from flags, environment or file, paths resolved where they were given', () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'proxy.config.json'),
      JSON.stringify({ shadow: { policies: 'policies.yaml', retention: { maxAge: '24h' } } }),
    );
    const fromFile = loadConfig({}, {}, folder).config;
    expect(fromFile.shadow).toEqual({
      policies: join(folder, 'policies.yaml'),
      database: join(folder, 'recordings/calltape-shadow.sqlite'),
      queueSize: 10_000,
      retention: { maxRows: 1_000_000, maxAge: '24h' },
    });
    expect(fromFile.admin.token).toBeNull();
    const fromEnv = loadConfig(
      {},
      {
        CALLTAPE_POLICIES: 'other.yaml',
        CALLTAPE_ADMIN_TOKEN: 'env-token-0123456789',
        CALLTAPE_SHADOW_DB: 'db.sqlite',
      },
      '/work',
    ).config;
    expect([fromEnv.shadow.policies, fromEnv.shadow.database, fromEnv.admin.token]).toEqual([
      '/work/other.yaml',
      '/work/db.sqlite',
      'env-token-0123456789',
    ]);
    const fromFlags = loadConfig(
      { policies: 'flag.yaml', adminToken: 'flag-token-0123456789' },
      { CALLTAPE_POLICIES: 'other.yaml', CALLTAPE_ADMIN_TOKEN: 'env-token-0123456789' },
      '/work',
    ).config;
    expect([fromFlags.shadow.policies, fromFlags.admin.token]).toEqual([
      '/work/flag.yaml',
      'flag-token-0123456789',
    ]);
    expect(configError(() => loadConfig({ adminToken: 'short' }, {}, '/work'))).toContain(
      '--admin-token',
    );
  });
});

describe('ollamaHostOrigin', () => {
  it('reads OLLAMA_HOST as the ollama client does: http and port 11434 unless given', () => {
    expect(ollamaHostOrigin('127.0.0.1')).toBe('http://127.0.0.1:11434');
    expect(ollamaHostOrigin('0.0.0.0:1234')).toBe('http://0.0.0.0:1234');
    expect(ollamaHostOrigin(':5555')).toBe('http://127.0.0.1:5555');
    expect(ollamaHostOrigin('https://ollama.example')).toBe('https://ollama.example');
    expect(ollamaHostOrigin('http://box:80/ollama/')).toBe('http://box/ollama');
    expect(ollamaHostOrigin('')).toBeUndefined();
    expect(ollamaHostOrigin(undefined)).toBeUndefined();
    expect(ollamaHostOrigin('ftp://box')).toBeUndefined();
  });
});
