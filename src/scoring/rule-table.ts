import { ownValue } from './own.js';
import type { ArgumentRule } from './types.js';

/** A rule path pattern: `*` stands for any run of characters within one path segment (`*_id`, `items[].*`). */
interface GlobRule {
  readonly source: string;
  readonly pattern: RegExp;
  readonly rule: ArgumentRule;
}

/** A case's rules, ready for lookup: exact paths first, then glob paths in the order written. */
export interface RuleTable {
  readonly exact: ReadonlyMap<string, ArgumentRule>;
  readonly globs: readonly GlobRule[];
  /** Exact-path rules that apply with no expected value (any_of, regex with a pattern, numeric ranges), by parent rule path (`''`, `address.`). */
  readonly standalone: ReadonlyMap<string, readonly string[]>;
  /** Whether some glob rule applies with no expected value. */
  readonly globStandalone: boolean;
}

const tables = new WeakMap<object, RuleTable>();
const empty: RuleTable = {
  exact: new Map(),
  globs: [],
  standalone: new Map(),
  globStandalone: false,
};

/** Whether a tool name or rule path is a glob (`search_*`). Tool names cannot hold `*` on any wire. */
export function isGlob(text: string): boolean {
  return text.includes('*');
}

/** `search_*` → a regex over a whole name or path; `*` never crosses `.` or `[`. */
export function globPattern(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^.[\\]]*')}$`,
  );
}

/** Tool names an expectation accepts: exact names or globs. */
export function nameMatches(accepted: string, name: string): boolean {
  return accepted === name || (isGlob(accepted) && globPattern(accepted).test(name));
}

/** Rules that need no expected value to be checked: they carry their own acceptable values, pattern or range. */
export function standsAlone(rule: ArgumentRule): boolean {
  const strategy = rule.matching_strategy;
  return (
    rule.any_of !== undefined ||
    (strategy === 'regex' && rule.pattern !== undefined) ||
    (strategy === 'numeric' && (rule.min !== undefined || rule.max !== undefined))
  );
}

export function ruleTable(rules: { readonly [path: string]: ArgumentRule } | undefined): RuleTable {
  if (rules === undefined) return empty;
  const known = tables.get(rules);
  if (known) return known;
  const exact = new Map<string, ArgumentRule>();
  const globs: GlobRule[] = [];
  const standalone = new Map<string, string[]>();
  let globStandalone = false;
  for (const path of Object.keys(rules)) {
    const rule = ownValue(rules, path) as ArgumentRule;
    if (isGlob(path)) {
      globs.push({ source: path, pattern: globPattern(path), rule });
      if (standsAlone(rule)) globStandalone = true;
      continue;
    }
    exact.set(path, rule);
    if (!standsAlone(rule)) continue;
    const cut = path.lastIndexOf('.');
    const parent = cut < 0 ? '' : path.slice(0, cut + 1);
    const key = path.slice(parent.length);
    // `items[]` (a rule on every element) is no argument of its own.
    if (/[[\]]/.test(key)) continue;
    const list = standalone.get(parent) ?? [];
    list.push(key);
    standalone.set(parent, list);
  }
  const table = { exact, globs, standalone, globStandalone };
  tables.set(rules, table);
  return table;
}

/** The rule at a rule path (`items[].sku`): the exact path's, else the first glob that matches. */
export function ruleAt(table: RuleTable, rulePath: string): ArgumentRule | undefined {
  const exact = table.exact.get(rulePath);
  if (exact !== undefined || table.globs.length === 0) return exact;
  for (const glob of table.globs) if (glob.pattern.test(rulePath)) return glob.rule;
  return undefined;
}

/** `items[3].sku` → `items[].sku`: rules are written for every element. */
export function rulePathOf(path: string): string {
  return path.includes('[') ? path.replace(/\[\d+\]/g, '[]') : path;
}

/** A matcher for the tool names an expectation accepts: exact names (a set) and globs. */
export function nameMatcher(names: readonly string[]): (name: string) => boolean {
  const exact = names.filter((name) => !isGlob(name));
  const globs = names.filter(isGlob).map(globPattern);
  const [only] = exact;
  // Nearly every expectation names one tool: a comparison, not a hashed lookup, on the path every pair takes.
  if (globs.length === 0 && exact.length === 1 && only !== undefined)
    return (name) => name === only;
  return (name) => exact.includes(name) || globs.some((glob) => glob.test(name));
}
