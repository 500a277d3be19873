import type { JsonValue } from '../trace/trace.js';
import { setOwn } from './own.js';

const placeholder = /\{\{\s*(TODAY|NOW|TOMORROW|YESTERDAY)\s*(?:([+-])\s*(\d+)\s*([mhd]))?\s*\}\}/g;
const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * Resolves `{{TODAY}}`, `{{NOW}}`, `{{TOMORROW}}`, `{{YESTERDAY}}` and offsets (`{{NOW+2h}}`,
 * `{{TODAY-7d}}`, units m/h/d) in expected values against an injected clock, in UTC: days
 * become `YYYY-MM-DD`, instants ISO 8601. The same clock gives the same expectations.
 */
export function resolvePlaceholders(value: JsonValue, now: Date): JsonValue {
  // Most expectations hold no placeholder: hand them back untouched, without copying.
  return hasPlaceholder(value) ? resolve(value, now) : value;
}

export function hasPlaceholder(value: JsonValue): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(hasPlaceholder);
  if (typeof value === 'object' && value !== null) {
    for (const key in value)
      if (Object.hasOwn(value, key) && hasPlaceholder(value[key] as JsonValue)) return true;
  }
  return false;
}

function resolve(value: JsonValue, now: Date): JsonValue {
  if (typeof value === 'string')
    return value.includes('{{')
      ? value.replace(
          placeholder,
          (_match, name: string, sign?: string, amount?: string, unit?: keyof typeof unitMs) =>
            render(name, sign, amount, unit, now),
        )
      : value;
  if (Array.isArray(value)) return value.map((item) => resolve(item, now));
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) setOwn(result, key, resolve(item, now));
    return result;
  }
  return value;
}

function render(
  name: string,
  sign: string | undefined,
  amount: string | undefined,
  unit: keyof typeof unitMs | undefined,
  now: Date,
): string {
  const dayShift = name === 'TOMORROW' ? 1 : name === 'YESTERDAY' ? -1 : 0;
  const offset =
    sign && amount && unit ? (sign === '-' ? -1 : 1) * Number(amount) * unitMs[unit] : 0;
  const instant = new Date(now.getTime() + dayShift * unitMs.d + offset);
  return name === 'NOW' ? instant.toISOString() : instant.toISOString().slice(0, 10);
}
