import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import type { JsonValue } from '../../trace/trace.js';
import { looseString } from './loose-string.js';

/** Normalisers a rule can name (`"normalise": ["phone"]`); each maps a value to its canonical form, leaving what it cannot read unchanged. */
export type NamedNormaliser = 'phone' | 'money' | 'email' | 'url' | 'loose_string';

export const namedNormalisers: Record<
  NamedNormaliser,
  (value: JsonValue, options: { readonly country?: string }) => JsonValue
> = {
  /** Phone numbers to E.164 (`(415) 555-2671` → `+14155552671`), reading national numbers in `country` (default US). */
  phone: (value, options) => {
    if (typeof value !== 'string' && typeof value !== 'number') return value;
    const parsed = parsePhoneNumberFromString(
      String(value),
      (options.country ?? 'US') as CountryCode,
    );
    return parsed?.isValid() ? parsed.number : value;
  },
  /**
   * Amounts of money to a number: `"$1,234.50"`, `"1.234,50 €"`, `"USD 1234.5"` → 1234.5. The
   * currency is not compared here (tool schemas carry it as its own argument); a decimal comma is
   * recognised when it is the last separator followed by one or two digits.
   */
  money: (value) => {
    if (typeof value !== 'string') return value;
    const digits = value.replace(/[^\d.,-]/g, '');
    if (!/\d/.test(digits)) return value;
    const decimalComma =
      /,\d{1,2}$/.test(digits) &&
      (!digits.includes('.') || digits.lastIndexOf(',') > digits.lastIndexOf('.'));
    const plain = decimalComma
      ? digits.replace(/\./g, '').replace(',', '.')
      : digits.replace(/,/g, '');
    const amount = Number(plain);
    return Number.isFinite(amount) ? amount : value;
  },
  /** E-mail addresses trimmed and lower-cased (providers treat the local part case-insensitively in practice). */
  email: (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  /** URLs in WHATWG canonical form: scheme and host lower-cased, default port dropped, `/` for an empty path. */
  url: (value) => {
    if (typeof value !== 'string') return value;
    try {
      return new URL(value.trim()).href;
    } catch {
      return value;
    }
  },
  loose_string: (value) => (typeof value === 'string' ? looseString(value) : value),
};
