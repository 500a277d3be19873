import type { JsonSchema, JsonValue } from '../trace/trace.js';
import { objectNode, type ObjectNode } from './argument-tree.js';
import { compileSchema, type CompiledSchema } from './compile-schema.js';
import { inferSchema } from './infer-schema.js';
import { normaliseBySchema } from './normalise/normalise-by-schema.js';
import { hasPlaceholder, resolvePlaceholders } from './placeholders.js';
import { ruleTable, type RuleTable } from './rule-table.js';
import { sentPlan, type SentPlan } from './score-sent.js';
import type { ExpectedCall, ExtraPolicy, ScoreOptions } from './types.js';

/** The expected arguments and rules of one acceptable call (the expected call itself, or an alternative), with its trees. */
export interface Candidate {
  readonly accepts: (name: string) => boolean;
  readonly arguments: { readonly [name: string]: JsonValue };
  readonly rules: RuleTable;
  readonly ruleless: boolean;
  readonly clockBound: boolean;
  readonly namedNormalisers: boolean;
  /** Trees by declared schema (`undefined`: inferred), for the last clock and normalisers seen. */
  readonly trees: WeakMap<JsonSchema, Tree>;
  inferred: Tree | undefined;
  /** The tree asked for last: a case scored again meets the same schema object (checked first, no map lookup). */
  last: Tree | undefined;
}

/** A candidate's expectation under one schema, clock and set of normalisers. */
export interface Tree {
  readonly now: number;
  readonly normalisers: ScoreOptions['normalisers'];
  readonly declared: JsonSchema | undefined;
  /** The declared schema prepared, else the one inferred from the expectation (normalising, never checking). */
  readonly schema: CompiledSchema;
  readonly root: ObjectNode;
  /** The root bound to the schema for one walk over the sent arguments; undefined when a standalone glob rule makes the members depend on the call. */
  readonly plan: SentPlan | undefined;
}

const noArguments: { readonly [name: string]: JsonValue } = {};

export function candidate(
  accepts: (name: string) => boolean,
  args: ExpectedCall['arguments'],
  rules: ExpectedCall['rules'],
): Candidate {
  const values = args ?? noArguments;
  return {
    accepts,
    arguments: values,
    rules: ruleTable(rules),
    ruleless: rules === undefined || Object.keys(rules).length === 0,
    clockBound: hasPlaceholder(values),
    namedNormalisers: Object.values(rules ?? {}).some((rule) => rule.normalise !== undefined),
    trees: new WeakMap(),
    inferred: undefined,
    last: undefined,
  };
}

function fits(
  entry: Candidate,
  tree: Tree | undefined,
  options: ScoreOptions,
  now: number,
): tree is Tree {
  return (
    tree !== undefined &&
    (!entry.clockBound || tree.now === now) &&
    (!entry.namedNormalisers || tree.normalisers === options.normalisers)
  );
}

/**
 * The tree of a candidate under a schema, clock and normalisers: built once, then reused.
 * `checkDeclared` runs before a declared schema is first used (it throws for one that is no
 * schema or does not compile), told the tool the schema was declared for.
 */
export function treeOf(
  entry: Candidate,
  declared: JsonSchema | undefined,
  extra: ExtraPolicy,
  options: ScoreOptions,
  now: number,
  checkDeclared: (declared: JsonSchema, tool: string) => void,
  tool: string,
): Tree {
  const last = entry.last;
  if (last !== undefined && last.declared === declared && fits(entry, last, options, now))
    return last;
  const cached = declared === undefined ? entry.inferred : entry.trees.get(declared);
  if (fits(entry, cached, options, now)) return (entry.last = cached);
  if (declared !== undefined && cached === undefined) checkDeclared(declared, tool);
  const resolved = resolvePlaceholders(entry.arguments, new Date(now));
  const schema = declared ?? inferSchema(resolved) ?? {};
  const root = objectNode(resolved, normaliseBySchema(resolved, schema, true), '', {
    rules: entry.rules,
    extra,
    options,
  });
  const prepared = compileSchema(schema);
  const tree = {
    now,
    normalisers: options.normalisers,
    declared,
    schema: prepared,
    root,
    plan: sentPlan(root, prepared, declared !== undefined),
  };
  if (declared === undefined) entry.inferred = tree;
  else entry.trees.set(declared, tree);
  return (entry.last = tree);
}
