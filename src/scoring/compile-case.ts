import type { JsonSchema } from '../trace/trace.js';
import { candidate, treeOf, type Candidate } from './candidate-trees.js';
import {
  cleanPair,
  combinePairs,
  explained,
  finish,
  messages,
  nothingCalled,
  nothingExpected,
  type PairScore,
} from './combine-pairs.js';
import { compareCompiled, newState, resetState, type CompareState } from './compiled-arguments.js';
import { equalAfterNormalising } from './equal-after-normalising.js';
import {
  checkDeclared as checkDeclaredSchema,
  expectedCallsOf,
  scoreFirstSight,
} from './first-sight.js';
import {
  normalisedOf,
  prepareActual,
  sentOf,
  violationOf,
  type PreparedActual,
} from './prepared-actual.js';
import { nameMatcher } from './rule-table.js';
import { breaksSchema, scoreSent } from './score-sent.js';
import type { ActualCall, ScoreOptions, ScoreResult, TestCase } from './types.js';
import { extraPolicyFor, undeclaredArguments, undeclaredMismatch } from './undeclared-arguments.js';
import { checkTestCase } from './validate-case.js';
import { ownValue, setOwn } from './own.js';

/**
 * A test case compiled once into a reusable scorer: checked whole (unknown keys, rules that need
 * a value, schemas that do not compile), tool names bound to matchers, rules resolved into a
 * table, and per schema and clock the expectation normalised into a tree of prepared nodes. The
 * per-call work is a walk over those nodes that allocates nothing until something mismatches; an
 * explanation is built only for a call that does not match. What `scoreCall` runs; results are
 * byte-identical to `scoreCallReference`.
 */
export interface CompiledCase {
  score(actualCalls: readonly ActualCall[], options: ScoreOptions): ScoreResult;
}

/** Compiled cases by case object: a case is read once, however often it is scored (treat scored cases as immutable). */
const compiled = new WeakMap<object, CompiledCase>();
/** Cases checked and scored once, not yet compiled (first-sight.ts says why). */
const seenOnce = new WeakSet<object>();

export function compileCase(testCase: TestCase, where?: string): CompiledCase {
  const known = compiled.get(testCase);
  if (known) return known;
  const label = where ?? caseLabel(testCase);
  if (!seenOnce.has(testCase)) {
    checkTestCase(testCase, label);
    seenOnce.add(testCase);
    return { score: (calls, options) => scoreFirstSight(testCase, label, calls, options) };
  }
  seenOnce.delete(testCase);
  const made = build(testCase, label);
  compiled.set(testCase, made);
  return made;
}

function caseLabel(testCase: TestCase): string {
  const id =
    typeof testCase === 'object' && testCase !== null
      ? (testCase as { test_id?: unknown }).test_id
      : undefined;
  return typeof id === 'string' ? `test case "${id}":` : 'test case:';
}

interface Expectation {
  readonly named: (name: string) => boolean;
  readonly label: string;
  readonly self: Candidate;
  readonly selfOnly: readonly Candidate[];
  readonly alternatives: readonly Candidate[];
}

const noCandidates: readonly Candidate[] = [];

/**
 * One pair's verdict without its explanation: its score in [0, 1], or `cleanMatch` when nothing at
 * all mismatched (a score of 1 with something recorded, under a rule of weight 0, is not clean).
 */
type PairVerdict = number;
const cleanMatch: PairVerdict = 2;
/** A rule-less expectation equal to the call: the pair is a clean match, whatever came before. */
const matched = -1;

function build(testCase: TestCase, where: string): CompiledCase {
  const expectedCalls = expectedCallsOf(testCase);
  const expectations: Expectation[] = expectedCalls.map((call) => {
    const names =
      typeof call.expected_tool === 'string' ? [call.expected_tool] : call.expected_tool;
    const named = nameMatcher(names);
    const self = candidate(named, call.arguments, call.rules);
    return {
      named,
      label: names.join(' or '),
      self,
      selfOnly: [self],
      alternatives: (call.alternatives ?? []).map((alternative) =>
        candidate(nameMatcher([alternative.tool]), alternative.arguments, alternative.rules),
      ),
    };
  });
  const threshold = testCase.pass_threshold ?? 1;
  const policy = testCase.multiple_calls ?? 'penalize';
  const extraPolicy = testCase.extra_arguments;
  const bySchema = (extraPolicy ?? 'schema') === 'schema';
  const caseSchemas = testCase.schemas;
  const checkDeclared = (declared: JsonSchema, tool: string): void =>
    checkDeclaredSchema(declared, tool, caseSchemas, where);

  /** The candidates an actual call is scored as: the expectation itself when named, and alternatives naming its tool. */
  const candidatesFor = (expectation: Expectation, name: string): readonly Candidate[] => {
    const own = expectation.named(name);
    if (expectation.alternatives.length === 0) return own ? expectation.selfOnly : noCandidates;
    const alternatives = expectation.alternatives.filter((entry) => entry.accepts(name));
    return own ? [expectation.self, ...alternatives] : alternatives;
  };

  /** One candidate against one call: the walk's score (explaining or not), `matched` for a rule-less match seen at once, or the schema violation. */
  const walk = (
    entry: Candidate,
    actual: PreparedActual,
    options: ScoreOptions,
    now: number,
    state: CompareState,
  ): number | string => {
    const sent = sentOf(actual) as Exclude<ReturnType<typeof sentOf>, string>;
    const { declared } = actual;
    const extra = extraPolicyFor(extraPolicy, declared);
    // Without a schema to validate against or rules to apply, a call that matches needs no tree: answer it in one walk.
    if (!declared && entry.ruleless && equalAfterNormalising(entry.arguments, sent, extra))
      return matched;
    const tree = treeOf(entry, declared, extra, options, now, checkDeclared, actual.call.name);
    const { plan, root, schema } = tree;
    let raw: number;
    if (plan === undefined) {
      const violation = declared === undefined ? undefined : violationOf(actual, declared, schema);
      if (violation !== undefined) return violation;
      raw = compareCompiled(root, sent, normalisedOf(actual, schema), state);
    } else if (declared === undefined || !plan.checks) {
      const violation = declared === undefined ? undefined : violationOf(actual, declared, schema);
      if (violation !== undefined) return violation;
      raw = scoreSent(plan, sent, state, false);
    } else {
      // One walk checks and compares; Ajv words (and has the last say on) what it finds broken.
      raw = scoreSent(plan, sent, state, true);
      if (raw === breaksSchema) {
        const violation = violationOf(actual, declared, schema);
        if (violation !== undefined) return violation;
        resetState(state);
        raw = scoreSent(plan, sent, state, false);
      }
    }
    if (bySchema && declared !== undefined)
      for (const key of undeclaredArguments(sent, entry.arguments, entry.rules, declared)) {
        state.dirty = true;
        state.unexpected = true;
        if (state.explain)
          setOwn((state.mismatches ??= {}), key, undeclaredMismatch(ownValue(sent, key)));
      }
    return state.critical || state.unexpected ? 0 : raw;
  };

  /** One expected call against one actual call, explained. */
  const explainPair = (
    expectation: Expectation,
    actual: PreparedActual,
    options: ScoreOptions,
    now: number,
  ): PairScore => {
    const name = actual.call.name;
    const candidates = candidatesFor(expectation, name);
    if (candidates.length === 0)
      return {
        score: 0,
        mismatches: {},
        reasons: ['wrong_tool'],
        tool: null,
        message: `${messages.wrong_tool}: expected ${expectation.label}, got ${name}`,
      };
    const sent = sentOf(actual);
    if (typeof sent === 'string')
      return { score: 0, mismatches: {}, reasons: ['invalid_json'], tool: name, message: sent };
    let best: PairScore | undefined;
    for (const entry of candidates) {
      const state = newState(true, options);
      const score = walk(entry, actual, options, now, state);
      if (score === matched) return cleanPair(name);
      if (typeof score === 'string') {
        best ??= {
          score: 0,
          mismatches: {},
          reasons: ['schema_violation'],
          tool: name,
          message: `${messages.schema_violation}: ${score}`,
        };
        continue;
      }
      const result = explained(score, state, name);
      if (!best || result.score > best.score) best = result;
      // Nothing scores above a clean match, and the first of equal scores is kept.
      if (score === 1 && !state.dirty) break;
    }
    return best as PairScore;
  };

  /** The same pair, its score alone: what pairing parallel calls needs, allocating nothing for a clean match. */
  const scorePair = (
    expectation: Expectation,
    actual: PreparedActual,
    options: ScoreOptions,
    now: number,
    state: CompareState,
  ): PairVerdict => {
    const candidates = candidatesFor(expectation, actual.call.name);
    if (candidates.length === 0 || typeof sentOf(actual) === 'string') return 0;
    let best: PairVerdict | undefined;
    for (const entry of candidates) {
      resetState(state);
      const score = walk(entry, actual, options, now, state);
      if (score === matched) return cleanMatch;
      if (typeof score === 'string') {
        best ??= 0;
        continue;
      }
      if (score === 1 && !state.dirty) return best !== undefined && best >= 1 ? best : cleanMatch;
      if (best === undefined || score > best) best = score;
    }
    return best as PairVerdict;
  };

  return {
    score(actualCalls, options) {
      const now = (options.now ?? new Date()).getTime();
      if (expectations.length === 0) return nothingExpected(actualCalls.length, threshold);
      if (actualCalls.length === 0) return nothingCalled(expectations.length, threshold);
      const [only] = expectations;
      if (expectations.length === 1 && actualCalls.length === 1 && only) {
        const actual = prepareActual(actualCalls[0] as ActualCall, caseSchemas, options);
        const pair = explainPair(only, actual, options, now);
        return finish(
          pair.score,
          pair.mismatches,
          [...pair.reasons],
          [0],
          [pair.tool],
          0,
          threshold,
          pair.message,
        );
      }
      const actuals = actualCalls.map((call) => prepareActual(call, caseSchemas, options));
      // Every pair's verdict, not explained; one state serves every walk (reset before each).
      const state = newState(false, options);
      const verdicts: PairVerdict[][] = [];
      const scores: number[][] = [];
      for (let row = 0; row < expectations.length; row++) {
        const expectation = expectations[row] as Expectation;
        const line: PairVerdict[] = [];
        const lineScores: number[] = [];
        for (let column = 0; column < actuals.length; column++) {
          const verdict = scorePair(
            expectation,
            actuals[column] as PreparedActual,
            options,
            now,
            state,
          );
          line.push(verdict);
          lineScores.push(verdict === cleanMatch ? 1 : verdict);
        }
        verdicts.push(line);
        scores.push(lineScores);
      }
      // Only the assigned pairs are explained, each once.
      const explainedPairs: (PairScore | undefined)[] = [];
      return combinePairs(
        expectations.length,
        actuals.length,
        policy,
        threshold,
        scores,
        (row, column) => {
          const key = row * actuals.length + column;
          const known = explainedPairs[key];
          if (known !== undefined) return known;
          const actual = actuals[column] as PreparedActual;
          const pair =
            verdicts[row]?.[column] === cleanMatch
              ? cleanPair(actual.call.name)
              : explainPair(expectations[row] as Expectation, actual, options, now);
          explainedPairs[key] = pair;
          return pair;
        },
      );
    },
  };
}
