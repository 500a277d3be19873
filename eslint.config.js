// @ts-check
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The layering of src/, kept in architecture.json so test/architecture.test.ts reads the same
 * lists. `layers`: the folders of src/ from the bottom up (the design's layering and each
 * folder's README); a unit may import only units below it, so the folder graph has no cycle, and
 * moving a unit is a one-line change there. `pure`: plain data in, plain data out; a pure module
 * may import only other pure modules, so no I/O reaches it even through a neighbour.
 * `ioPackages`: the modules that do I/O, which no pure module imports (computing modules such as
 * `node:crypto`, `node:path` and `node:util` are fine).
 * @type {{ layers: string[], pure: string[], ioPackages: string[] }}
 */
const { layers, pure, ioPackages } = JSON.parse(
  readFileSync(new globalThis.URL('./architecture.json', import.meta.url), 'utf8'),
);

const layerZones = layers.slice(0, -1).map((unit, index) => ({
  target: `./src/${unit}`,
  from: layers.slice(index + 1).map((above) => `./src/${above}`),
  message: `src/${unit} sits below these in the layering (eslint.config.js \`layers\`): import downwards only.`,
}));

const pureZones = pure.map((unit) => ({
  target: `./src/${unit}`,
  from: './src',
  except: pure.map((other) => `./${other}`),
  message: `src/${unit} is pure (eslint.config.js \`pure\`): it may import only pure modules.`,
}));

export default defineConfig(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'assets/',
      'recordings/',
      'bench/results/',
      // Written by `npm run config:validator` (ajv's standalone code), checked by test/config-validator.test.ts.
      'src/config/proxy-config-validator.generated.ts',
    ],
  },
  // A disable comment that no longer matches a problem is stale: say so, so it is removed.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      // Sources import `./x.js` and the file is `x.ts` (NodeNext).
      'import-x/resolver-next': [
        createNodeResolver({ extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } }),
      ],
    },
    rules: {
      // Numbers and booleans read naturally in messages; objects and nullish values stay errors.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      // `_name` leaves a field out of a rest copy (`const { usage: _usage, ...rest } = body`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `return response.end()` in a void handler is node:http's "answer and stop" idiom.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Wire JSON is typed by a cast after a shape check, and the guards after it stay on purpose: no input crashes the process.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Same reason: a cast on a value from the wire documents what was checked, even where the compiler could infer it.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // String() of whatever arrived (ws RawData, unknown JSON) is what an error message or a test should show.
      '@typescript-eslint/no-base-to-string': 'off',
      // An async function that implements a Promise-returning interface reads better than Promise.resolve().
      '@typescript-eslint/require-await': 'off',
      // Header and option objects drop hop-by-hop or unset keys by name.
      '@typescript-eslint/no-dynamic-delete': 'off',
      // `flag === false` distinguishes false from undefined on optional flags (commander options).
      '@typescript-eslint/no-unnecessary-boolean-literal-compare': 'off',
      // `${text}` keeps the shape of a message next to its siblings; not a correctness issue.
      '@typescript-eslint/no-unnecessary-template-expression': 'off',
      // `void` marks a deliberately ignored value even where it is already void; not a correctness issue.
      '@typescript-eslint/no-meaningless-void-operator': 'off',
      // An import that does not resolve would slip past the layering zones below.
      'import-x/no-unresolved': 'error',
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...pureZones] }],
    },
  },
  {
    files: pure.map((unit) => (unit.endsWith('.ts') ? `src/${unit}` : `src/${unit}/**/*.ts`)),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ioPackages.map((name) => ({ name, message: 'Pure modules do no I/O.' })),
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests and benchmarks read JSON.parse and SDK results and assert on their shape; `any` there is checked by the assertion.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      // Framework tests drive the APIs real agents use today, deprecated ones included.
      '@typescript-eslint/no-deprecated': 'off',
      // `Promise<Response | void>` is how a test's fake handler says "answered, or left to the next".
      '@typescript-eslint/no-invalid-void-type': 'off',
      // A literal beside `string` in a fixture type names the sentinel (`'[DONE]' | string`).
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
