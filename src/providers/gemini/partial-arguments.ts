import type { JsonValue } from '../../trace/trace.js';
import { asArray, asBoolean, asNumber, asObject, asString } from '../json-access.js';

type Step = string | number;
type Container = { [key: string]: JsonValue } | JsonValue[];

/**
 * A function call's arguments streamed piece by piece (`streamFunctionCallArguments`: each
 * `functionCall.partialArgs` entry sets one JSON path, `$.recipe.steps[1]`; a `stringValue` continues
 * the string already at its path). Paths are data: objects are built without a prototype and an
 * array grows only by its next position, so a path cannot make calltape hold more than it was sent.
 */
export class PartialArguments {
  private readonly root: { [key: string]: JsonValue } = Object.create(null) as {
    [key: string]: JsonValue;
  };
  private refused: string | undefined;

  /** Applies one `partialArgs` list. */
  add(partialArgs: JsonValue | undefined): void {
    for (const value of asArray(partialArgs)) {
      const entry = asObject(value);
      const path = asString(entry?.['jsonPath']);
      const steps = path === undefined ? undefined : parsePath(path);
      if (!entry || !steps || steps.length === 0) {
        this.refused ??= `unreadable partialArgs path ${JSON.stringify(path ?? null)}`;
        continue;
      }
      const text = asString(entry['stringValue']);
      const leaf: JsonValue | undefined =
        text ??
        asNumber(entry['numberValue']) ??
        asBoolean(entry['boolValue']) ??
        (Object.hasOwn(entry, 'nullValue') ? null : undefined);
      if (leaf === undefined) continue;
      if (!this.set(steps, leaf, text !== undefined))
        this.refused ??= `partialArgs path ${path ?? ''} does not fit the arguments built so far`;
    }
  }

  /** Whether every piece so far fitted (a path that skips array positions or changes a value's kind does not). */
  get fits(): boolean {
    return this.refused === undefined;
  }

  /** Why a piece did not fit, for the first that did not. */
  get refusal(): string | undefined {
    return this.refused;
  }

  /** The arguments assembled so far, as plain JSON. */
  value(): JsonValue {
    return JSON.parse(JSON.stringify(this.root)) as JsonValue;
  }

  private set(steps: readonly Step[], leaf: JsonValue, append: boolean): boolean {
    let container: Container = this.root;
    for (let index = 0; index < steps.length; index++) {
      const step = steps[index] as Step;
      const last = index === steps.length - 1;
      const next = steps[index + 1];
      const existing = read(container, step);
      if (existing === false) return false;
      if (last) {
        const joined =
          append && typeof existing === 'string' && typeof leaf === 'string'
            ? existing + leaf
            : leaf;
        return write(container, step, joined);
      }
      if (existing !== undefined && existing !== null && typeof existing === 'object') {
        container = existing;
        continue;
      }
      const created: Container =
        typeof next === 'number' ? [] : (Object.create(null) as { [key: string]: JsonValue });
      if (!write(container, step, created)) return false;
      container = created;
    }
    return true;
  }
}

/** The value at `step` (undefined when absent), or false when the step does not fit the container. */
function read(container: Container, step: Step): JsonValue | undefined | false {
  if (Array.isArray(container)) {
    if (typeof step !== 'number' || step > container.length) return false;
    return container[step];
  }
  if (typeof step === 'number') return false;
  return Object.hasOwn(container, step) ? container[step] : undefined;
}

function write(container: Container, step: Step, value: JsonValue): boolean {
  if (Array.isArray(container)) {
    if (typeof step !== 'number' || step > container.length) return false;
    container[step] = value;
    return true;
  }
  if (typeof step === 'number') return false;
  container[step] = value;
  return true;
}

/** `$.a.b[0]['c d']` as its steps; undefined when it is not such a path. */
export function parsePath(path: string): Step[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: Step[] = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (!match) return undefined;
    const [, name, position, single, double] = match;
    if (position !== undefined) steps.push(Number(position));
    else steps.push((name ?? single ?? double ?? '').replace(/\\(.)/g, '$1'));
  }
  return steps;
}
