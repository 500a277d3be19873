/**
 * secretlint's recommended rules (@secretlint/secretlint-rule-preset-recommend) as redaction
 * expressions: the maintained list of credential shapes (GitHub, Slack, AWS, npm, private keys,
 * GitLab, Hugging Face, database URLs with a password…) rather than a hand-kept one.
 *
 * Each rule runs through secretlint's own rule interface, synchronously, on the decoded text:
 * `create(context)` once, then `file(source)` per text, reporting ranges. The rules' expressions
 * run on V8's engine (they use lookbehind, which RE2 lacks): every one starts with a fixed
 * prefix and repeats only bounded or separator-delimited runs, so each costs time linear in the
 * text (docs/security.md lists them).
 */
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import type { Replacer } from '../scoring/match/user-pattern.js';

/** What calltape reads of a secretlint rule (the package's own types come from a package it does not ship). */
interface SecretlintRule {
  readonly meta: { readonly id: string };
  create(context: SecretlintContext, options: object): { file?(source: SecretlintSource): void };
}

interface SecretlintContext {
  report(descriptor: {
    readonly range: readonly [number, number];
    readonly message: unknown;
  }): void;
  ignore(): void;
  createTranslator(): (id: string, props?: Readonly<Record<string, unknown>>) => unknown;
  registerRule(): void;
}

interface SecretlintSource {
  readonly content: string;
  readonly filePath: string;
  readonly contentType: 'text';
  readonly ext: string;
}

/** A rule as a redaction expression: what `createRedactor` runs after the built-in shapes. */
export interface SecretlintExpression {
  readonly pattern: { replaceAll(text: string, replacement: string | Replacer): string };
  readonly replacement: string;
  /** Texts every finding of the rule contains one of; undefined (scan every text) for a rule not in `ruleLiterals`. */
  readonly literals: readonly string[] | undefined;
}

/**
 * What every finding of each rule contains, read off the rule's expressions (their fixed
 * prefixes; `://` for the case-insensitive URL rules): a text holding none is not scanned. On
 * the store bench, scanning every text with every rule tripled the worker's time per round. A
 * rule missing here (a newer preset) is run on every text, and a test lists the rules without
 * an entry.
 */
export const ruleLiterals: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    aws: ['A3T', 'AKIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA']
      // The secret key and account id rules look for assignments to these names.
      .concat(['SECRET', 'secret', 'Secret', 'ACCOUNT', 'account', 'Account']),
    gcp: ['private_key_id'],
    npm: ['npm_', '_authToken=', 'x-oauth-basic'],
    slack: ['xoxb-', 'xoxp-', 'xapp-', 'xoxa-', 'xoxo-', 'xoxr-', '://'],
    basicauth: ['://'],
    openai: ['T3BlbkFJ'],
    anthropic: ['sk-ant-api0'],
    groq: ['gsk_'],
    huggingface: ['hf_'],
    linear: ['lin_api_'],
    notion: ['ntn_'],
    privatekey: ['-----BEGIN'],
    sendgrid: ['SG.'],
    shopify: ['shppa_', 'shpca_', 'shpat_', 'shpss_'],
    github: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    gitlab: ['glpat-'],
    grafana: ['glc_', 'glsa_'],
    '1password': ['ops_'],
    'database-connection-string': ['://'],
    'hashicorp-vault': ['hvs.', 'hvb.', 'hvr.'],
    vercel: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
    databricks: ['dapi'],
    docker: ['dckr_pat_'],
    figma: ['figd_'],
  }),
);

/**
 * Rules not used: the comment filter would let a text switch redaction off with a
 * `secretlint-disable` comment (a model can write one).
 */
const skipped = new Set(['@secretlint/secretlint-rule-filter-comments']);

/** The properties of a rule's message that hold the secret it found (others describe it: `typeName`, `FILE_NAME`). */
const secretFacts = ['KEY', 'TOKEN', 'ID', 'URI', 'URL', 'CREDENTIAL'];

/**
 * Options that differ from the rule's defaults: the AWS rule looks for access key ids
 * (`AKIA…`, `ASIA…`) only when asked.
 */
const ruleOptions: ReadonlyMap<string, object> = new Map([['aws', { enableIDScanRule: true }]]);

/**
 * The file names a rule sees the text as. Some rules look only at some files: npm's checks
 * `.npmrc` auth tokens and `package.json` URLs separately, GCP's only reads `.json` service
 * account keys. The text is shown to such a rule once per name, so every check runs.
 */
const ruleViews: ReadonlyMap<string, readonly SourceView[]> = new Map([
  [
    'npm',
    [
      { filePath: 'package.json', ext: '.json' },
      { filePath: '.npmrc', ext: '' },
    ],
  ],
  ['gcp', [{ filePath: 'service-account.json', ext: '.json' }]],
]);

interface SourceView {
  readonly filePath: string;
  readonly ext: string;
}

const plainText: readonly SourceView[] = [{ filePath: 'round.txt', ext: '.txt' }];

/** Reported values shorter than this are not searched for elsewhere in the text (they could be anything). */
const minValueLength = 8;

/** One expression per recommended rule, each replacing what it finds with `[REDACTED:<rule>]`. */
export function secretlintExpressions(): SecretlintExpression[] {
  return (rules as unknown as readonly SecretlintRule[])
    .filter((rule) => !skipped.has(rule.meta.id))
    .map(expressionOf);
}

function expressionOf(rule: SecretlintRule): SecretlintExpression {
  let found: { start: number; end: number; values: string[] }[] = [];
  const context: SecretlintContext = {
    report: ({ range, message }) => {
      const facts = (typeof message === 'object' && message !== null ? message : {}) as Readonly<
        Record<string, unknown>
      >;
      const values = secretFacts
        .map((name) => (Object.hasOwn(facts, name) ? facts[name] : undefined))
        .filter(
          (value): value is string => typeof value === 'string' && value.length >= minValueLength,
        );
      found.push({ start: range[0], end: range[1], values });
    },
    ignore: () => undefined,
    // The message's properties are the finding's facts (KEY, TOKEN, URI…): kept as the message.
    createTranslator: () => (_id, props) => props ?? {},
    registerRule: () => undefined,
  };
  const name = ruleName(rule.meta.id);
  const handlers = rule.create(context, ruleOptions.get(name) ?? {});
  const views = ruleViews.get(name) ?? plainText;
  const scan = (text: string): Span[] => {
    found = [];
    for (const view of views) handlers.file?.({ content: text, contentType: 'text', ...view });
    return found.length === 0 ? [] : spansOf(text, found);
  };
  return {
    replacement: `[REDACTED:${name}]`,
    literals: ruleLiterals.get(name),
    pattern: {
      replaceAll: (text, replace) => {
        const spans = scan(text);
        if (spans.length === 0) return text;
        let output = '';
        let at = 0;
        for (const { start, end } of spans) {
          const match = text.slice(start, end);
          output += text.slice(at, start);
          output += typeof replace === 'string' ? replace : replace(match, start, text);
          at = end;
        }
        return output + text.slice(at);
      },
    },
  };
}

/** `@secretlint/secretlint-rule-github` → `github`. */
export function ruleName(id: string): string {
  return id.replace(/^@secretlint\/secretlint-rule-/, '');
}

/** The names of the rules redaction runs (the preset's, less the comment filter). */
export function secretlintRuleNames(): string[] {
  return (rules as unknown as readonly SecretlintRule[])
    .filter((rule) => !skipped.has(rule.meta.id))
    .map((rule) => ruleName(rule.meta.id));
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * What to replace: each reported range, and every occurrence of each value the rule reported
 * (a rule's range may cover its match's start rather than the secret itself, as the AWS secret
 * key rule's does), merged where they overlap, in order.
 */
function spansOf(
  text: string,
  found: readonly { start: number; end: number; values: readonly string[] }[],
): Span[] {
  const spans: Span[] = [];
  for (const { start, end, values } of found) {
    if (end > start) spans.push({ start, end });
    for (const value of values)
      for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length))
        spans.push({ start: at, end: at + value.length });
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: { start: number; end: number }[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
