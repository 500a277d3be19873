import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/test-proxy.js';
import { loadMocks, type MockRegistry } from './load-mocks.js';
import type { MockCall } from './mock-types.js';

const loaded: MockRegistry[] = [];
afterEach(async () => {
  for (const registry of loaded.splice(0)) await registry.close();
});

function folderWith(files: Record<string, string>): string {
  const folder = temporaryFolder();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}
function load(
  files: Record<string, string>,
  names = Object.keys(files).filter((name) => /\.(ya?ml|json)$/.test(name)),
): MockRegistry {
  const registry = loadMocks(names, folderWith(files));
  loaded.push(registry);
  return registry;
}
function loadError(files: Record<string, string>): string {
  try {
    load(files);
  } catch (error) {
    return (error as Error).message.replace(/\/(?:[\w.-]+\/)*calltape-test-\w+\//g, '');
  }
  return 'loaded';
}
const call = (name: string, args: object, id = 'call_1'): MockCall => ({
  id,
  name,
  argumentsRaw: JSON.stringify(args),
});
const context = { session: '', occurrence: 0 };

const banking = `
tools:
  get_balance: { type: object, properties: { account_id: { type: string } }, required: [account_id] }
  lookup_order: { type: object, properties: { order_id: { type: string } } }
  flaky: { type: object, properties: {} }
mocks:
  - tool: get_balance
    result: { balance: 120, account: "{{args.account_id}}", note: "balance of {{args.account_id}} on {{call.name}}" }
  - tool: lookup_order
    when:
      - arguments: { order_id: "a-17" }
        rules: { order_id: { matching_strategy: ignore_case } }
        result: shipped
      - arguments: { order_id: "^B-\\\\d+$" }
        rules: { order_id: { matching_strategy: regex } }
        error: order is archived
    otherwise: { error: { code: 404 } }
  - tool: flaky
    sequence: [{ error: timeout }, { result: ok, delay_ms: 5 }]
`;

describe('mock answers', () => {
  it('static results with templates keep the argument type when a string is only the placeholder', async () => {
    const mocks = load({ 'banking.yaml': banking }).select(['banking']);
    expect(
      await mocks.get('get_balance')?.answer(call('get_balance', { account_id: 'ACC-1' }), context),
    ).toEqual({
      content: '{"balance":120,"account":"ACC-1","note":"balance of ACC-1 on get_balance"}',
      isError: false,
      delayMs: 0,
    });
    expect(await mocks.get('get_balance')?.answer(call('get_balance', {}), context)).toEqual({
      content: '{"error":"calltape mock get_balance: the call has no argument account_id"}',
      isError: true,
      delayMs: 0,
    });
    expect(
      await mocks
        .get('get_balance')
        ?.answer({ id: 'c', name: 'get_balance', argumentsRaw: '{"account_id":' }, context),
    ).toMatchObject({ isError: true });
  });

  it('conditional answers: first match wins, with the scoring matchers, else otherwise', async () => {
    const lookup = load({ 'banking.yaml': banking }).select(['banking']).get('lookup_order');
    expect(await lookup?.answer(call('lookup_order', { order_id: 'A-17' }), context)).toMatchObject(
      { content: 'shipped', isError: false },
    );
    expect(await lookup?.answer(call('lookup_order', { order_id: 'B-9' }), context)).toMatchObject({
      content: '{"error":"order is archived"}',
      isError: true,
    });
    expect(await lookup?.answer(call('lookup_order', { order_id: 'C-1' }), context)).toMatchObject({
      content: '{"code":404}',
      isError: true,
    });
  });

  it('sequences: by occurrence, then repeat the last or error', async () => {
    const flaky = load({ 'banking.yaml': banking }).select(['banking']).get('flaky');
    const answers = await Promise.all(
      [0, 1, 2].map(async (occurrence) =>
        flaky?.answer(call('flaky', {}), { session: '', occurrence }),
      ),
    );
    expect(answers).toEqual([
      { content: '{"error":"timeout"}', isError: true, delayMs: 0 },
      { content: 'ok', isError: false, delayMs: 5 },
      { content: 'ok', isError: false, delayMs: 5 },
    ]);
    const strict = load({
      's.yaml': 'mocks: [{ tool: t, sequence: [{ result: 1 }], after: error }]',
    })
      .select(['s'])
      .get('t');
    expect(await strict?.answer(call('t', {}), { session: '', occurrence: 1 })).toEqual({
      content: '{"error":"calltape mock t: the sequence of 1 answer(s) is used up"}',
      isError: true,
      delayMs: 0,
    });
  });

  it('module mocks: respond(call, context) on a worker thread, with a timeout', async () => {
    const registry = load({
      'quotes.json': JSON.stringify({
        mocks: [
          { tool: 'quote', module: './quote.mjs' },
          { tool: 'stuck', module: './stuck.mjs', timeout_ms: 100 },
        ],
      }),
      'quote.mjs':
        'export function respond(call, context) { return { result: { price: call.arguments.qty * 3, seen: context.occurrence } }; }',
      'stuck.mjs': 'export default function () { for (;;) {} }',
    });
    const mocks = registry.select(['quotes']);
    expect(
      await mocks.get('quote')?.answer(call('quote', { qty: 4 }), { session: 's', occurrence: 2 }),
    ).toEqual({ content: '{"price":12,"seen":2}', isError: false, delayMs: 0 });
    expect(await mocks.get('stuck')?.answer(call('stuck', {}), context)).toEqual({
      content: '{"error":"calltape mock stuck: timed out after 100 ms"}',
      isError: true,
      delayMs: 0,
    });
  });

  it('sets are selected by file name; two selected sets mocking one tool is an error', () => {
    const registry = load({
      'a.yaml': 'mocks: [{ tool: t, result: 1 }]',
      'b.yaml': 'mocks: [{ tool: t, result: 2 }]',
    });
    expect([...registry.sets.keys()]).toEqual(['a', 'b']);
    expect(() => registry.select(['a', 'b'])).toThrow(
      'mock sets "a" and "b" both mock t; select one of them',
    );
    expect(() => registry.select(['c'])).toThrow('no mock set named "c" (loaded: a, b)');
  });
});

describe('issue #30: mock modules are code', () => {
  it('refuses at load a module outside the project root of the mock file, unless allowed', () => {
    const outside = folderWith({
      'respond.mjs': 'export function respond() { return { result: 1 }; }',
    });
    const files = { 'm.yaml': `mocks: [{ tool: t, module: ${join(outside, 'respond.mjs')} }]` };
    // loadError drops the temporary folders from the message.
    expect(loadError(files)).toContain(
      'm.yaml: mocks[0] (t): module: respond.mjs is outside the project root',
    );
    const folder = folderWith(files);
    const allowed = loadMocks(['m.yaml'], folder, { run: true, outsideProject: true });
    loaded.push(allowed);
    expect(allowed.sets.get('m')?.has('t')).toBe(true);
  });

  it('under --no-code loads the set but answers with the refusal, never loading the module', async () => {
    const folder = folderWith({
      'm.yaml': 'mocks: [{ tool: t, module: ./respond.mjs }]',
      // Loading it would leave a file behind.
      'respond.mjs':
        "import { existsSync, writeFileSync } from 'node:fs'; writeFileSync(new URL('./loaded', import.meta.url), ''); export function respond() { return { result: 1 }; }",
    });
    const registry = loadMocks(['m.yaml'], folder, { run: false, outsideProject: false });
    loaded.push(registry);
    expect(await registry.select(['m']).get('t')?.answer(call('t', {}), context)).toEqual({
      content: JSON.stringify({
        error: `calltape mock t: --no-code: refused to load ${join(folder, 'respond.mjs')}`,
      }),
      isError: true,
      delayMs: 0,
    });
    expect(existsSync(join(folder, 'loaded'))).toBe(false);
  });
});

describe('mock files are checked at load time', () => {
  it('names the file, the mock and the field', () => {
    expect(loadError({ 'm.yaml': 'mocks: [{ tool: t, reslt: 1 }]' })).toBe(
      'm.yaml: mocks[0] (t): reslt: unknown field',
    );
    expect(
      loadError({ 'm.yaml': 'mocks: [{ tool: t, result: 1, sequence: [{ result: 2 }] }]' }),
    ).toBe('m.yaml: mocks[0] (t): give exactly one of result, error, when, sequence or module');
    expect(
      loadError({
        'm.yaml': 'mocks: [{ tool: t, when: [{ arguments: {a: 1}, result: 1 }], after: error }]',
      }),
    ).toBe('m.yaml: mocks[0] (t): after: only means something beside sequence');
    expect(
      loadError({
        'm.yaml':
          'mocks: [{ tool: t, when: [{ rules: { a: { matching_strategy: fuzy } }, result: 1 }] }]',
      }),
    ).toContain('m.yaml: mocks[0] (t): when[0].rules.a.matching_strategy: must be one of');
    expect(loadError({ 'm.yaml': 'mocks: [{ tool: t, result: 1 }, { tool: t, result: 2 }]' })).toBe(
      'm.yaml: mocks[1] (t): t is mocked twice in this file',
    );
    expect(loadError({ 'm.yaml': 'mocks: [{ tool: t, module: ./nope.mjs }]' })).toBe(
      'm.yaml: mocks[0] (t): module: no such file nope.mjs',
    );
    expect(
      loadError({
        'm.yaml':
          'mocks: [{ tool: t, when: [{ arguments: { a: "(" }, rules: { a: { matching_strategy: regex } }, result: 1 }] }]',
      }),
    ).toMatch(/^m\.yaml: mocks\[0\] \(t\): when\[0\]\.rules\.a: the regex does not compile/);
    expect(loadError({ 'm.json': '{"mocks": [' })).toMatch(/^m\.json: cannot read the mock file/);
  });

  it('with the tools declared: an unknown tool, or a template or condition naming a missing argument', () => {
    const tools =
      'tools: { get_balance: { type: object, properties: { account_id: { type: string } } } }\n';
    expect(loadError({ 'm.yaml': `${tools}mocks: [{ tool: get_balanse, result: 1 }]` })).toBe(
      'm.yaml: mocks[0] (get_balanse): tool: get_balanse is not one of the tools this file declares (get_balance)',
    );
    expect(
      loadError({
        'm.yaml': `${tools}mocks: [{ tool: get_balance, result: "{{args.acount_id}}" }]`,
      }),
    ).toBe(
      'm.yaml: mocks[0] (get_balance): result: the template names {{args.acount_id}}, but get_balance has no argument acount_id (it has: account_id)',
    );
    expect(
      loadError({
        'm.yaml': `${tools}mocks: [{ tool: get_balance, sequence: [{ result: 1 }, { error: "{{args.x}}" }] }]`,
      }),
    ).toBe(
      'm.yaml: mocks[0] (get_balance): sequence[1].error: the template names {{args.x}}, but get_balance has no argument x (it has: account_id)',
    );
    expect(
      loadError({
        'm.yaml': `${tools}mocks: [{ tool: get_balance, when: [{ arguments: { acct: 1 }, result: 1 }] }]`,
      }),
    ).toBe(
      'm.yaml: mocks[0] (get_balance): when[0].arguments.acct: get_balance has no argument acct',
    );
    expect(
      loadError({
        'm.yaml': 'tools: ./tools.json\nmocks: [{ tool: x, result: 1 }]',
        'tools.json': '[{"type":"function","function":{"name":"y","parameters":{}}}]',
      }),
    ).toBe('m.yaml: mocks[0] (x): tool: x is not one of the tools this file declares (y)');
  });
});

describe('mocks that remember (declared state per session)', () => {
  const orders = `
tools:
  cancel_order: { type: object, properties: { order_id: { type: string } } }
  get_order: { type: object, properties: { order_id: { type: string } } }
state:
  refunds: 0
mocks:
  - tool: cancel_order
    when:
      - state: { "status:{{args.order_id}}": cancelled }
        error: "{{args.order_id}} is already cancelled"
    otherwise:
      result: { cancelled: "{{args.order_id}}", after: "{{state.refunds}}" }
      set: { "status:{{args.order_id}}": cancelled, refunds: 1 }
  - tool: get_order
    when:
      - state: { "status:{{args.order_id}}": cancelled }
        result: { order_id: "{{args.order_id}}", status: cancelled }
    otherwise: { result: { order_id: "{{args.order_id}}", status: shipped } }
`;
  const at = (session: string) => ({ session, occurrence: 0 });

  it('cancel then get: the later call sees what the earlier one set; another session does not; a refused answer sets nothing', async () => {
    const mocks = load({ 'orders.yaml': orders }).select(['orders']);
    const cancel = mocks.get('cancel_order');
    const get = mocks.get('get_order');
    expect(await cancel?.answer(call('cancel_order', { order_id: 'A-17' }), at('s1'))).toEqual({
      content: '{"cancelled":"A-17","after":0}',
      isError: false,
      delayMs: 0,
      state: { 'status:A-17': 'cancelled', refunds: 1 },
    });
    expect((await get?.answer(call('get_order', { order_id: 'A-17' }), at('s1')))?.content).toBe(
      '{"order_id":"A-17","status":"cancelled"}',
    );
    expect((await get?.answer(call('get_order', { order_id: 'B-2' }), at('s1')))?.content).toBe(
      '{"order_id":"B-2","status":"shipped"}',
    );
    expect((await get?.answer(call('get_order', { order_id: 'A-17' }), at('s1#2')))?.content).toBe(
      '{"order_id":"A-17","status":"shipped"}',
    );
    expect(await cancel?.answer(call('cancel_order', { order_id: 'A-17' }), at('s1'))).toEqual({
      content: '{"error":"A-17 is already cancelled"}',
      isError: true,
      delayMs: 0,
    });
  });

  it('a module responder gets the session state in its context and may return set', async () => {
    const mocks = load({
      'counter.json': JSON.stringify({
        state: { count: 0 },
        mocks: [{ tool: 'bump', module: './bump.mjs' }],
      }),
      'bump.mjs':
        'export function respond(call, context) { return { result: { was: context.state.count }, set: { count: context.state.count + 1 } }; }',
    }).select(['counter']);
    const bump = mocks.get('bump');
    expect((await bump?.answer(call('bump', {}), at('m')))?.content).toBe('{"was":0}');
    expect(await bump?.answer(call('bump', {}), at('m'))).toMatchObject({
      content: '{"was":1}',
      state: { count: 2 },
    });
    expect((await bump?.answer(call('bump', {}), at('other')))?.content).toBe('{"was":0}');
  });

  it('names a set or state template reading an argument the tool lacks, at load', () => {
    expect(
      loadError({
        'm.yaml': `
tools: { t: { type: object, properties: { id: { type: string } } } }
mocks:
  - tool: t
    result: ok
    set: { "seen:{{args.idd}}": true }
`,
      }),
    ).toBe(
      'm.yaml: mocks[0] (t): set: the template names {{args.idd}}, but t has no argument idd (it has: id)',
    );
  });
});

describe('the shipped example mock sets', () => {
  it('load, and answer as their descriptions say', async () => {
    const { packageRoot } = await import('../package-root.js');
    const registry = loadMocks(['config/mocks/bank.yaml'], packageRoot);
    loaded.push(registry);
    const bank = registry.select(['bank']);
    expect(
      await bank
        .get('issue_refund')
        ?.answer(call('issue_refund', { order_id: 'A-17', amount: 20 }), context),
    ).toMatchObject({ content: '{"refunded":true,"order":"A-17","amount":20}', isError: false });
    expect(
      await bank
        .get('issue_refund')
        ?.answer(call('issue_refund', { order_id: 'A-17', amount: 5000 }), context),
    ).toMatchObject({ isError: true });
    expect(
      await bank.get('lookup_order')?.answer(call('lookup_order', { order_id: 'B-12' }), context),
    ).toMatchObject({ content: '{"error":"the order is archived"}' });
  });
});
