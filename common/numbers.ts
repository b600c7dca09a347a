import { z } from 'zod';

// The one reading of a typed whole number. Dutch thousands separators are accepted
// ('12.500', '1.000.000', as the lists show numbers); a decimal or a minus sign is refused, never
// dropped, so nothing is changed without a message.

/** Why a text is not a whole number of 0 or more. */
export type IntegerProblem = 'empty' | 'decimal' | 'negative' | 'invalid' | 'tooLarge';
/** The outcome of parseInteger: the value, or why the text is not a whole number. */
export type IntegerParse = { ok: true; value: number } | { ok: false; problem: IntegerProblem };

const PLAIN = /^\d+$/;
const GROUPED = /^\d{1,3}(\.\d{3})+$/;
const NUMBERISH = /^[+-]?[\d.,]*\d[\d.,]*$/;

/**
 * Reads a whole number of 0 or more (at most `max`) from typed text or a JSON number: digits,
 * optionally grouped by dots in threes ('12.500'); spaces around are ignored. Returns the value or
 * why it is refused ('decimal' for '1,5' or '1.5', 'negative' for '-3').
 */
export function parseInteger(input: string | number, max = Number.MAX_SAFE_INTEGER): IntegerParse {
  let value: number;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, problem: 'invalid' };
    if (input < 0) return { ok: false, problem: 'negative' };
    if (!Number.isInteger(input)) return { ok: false, problem: 'decimal' };
    value = input;
  } else {
    const text = input.trim();
    if (text === '') return { ok: false, problem: 'empty' };
    if (!NUMBERISH.test(text)) return { ok: false, problem: 'invalid' };
    if (text.startsWith('-')) return { ok: false, problem: 'negative' };
    const digits = text.startsWith('+') ? text.slice(1) : text;
    if (PLAIN.test(digits)) value = Number(digits);
    else if (GROUPED.test(digits)) value = Number(digits.replaceAll('.', ''));
    else return { ok: false, problem: /[.,]/.test(digits) ? 'decimal' : 'invalid' };
  }
  if (!Number.isSafeInteger(value) || value > max) return { ok: false, problem: 'tooLarge' };
  return { ok: true, value };
}

/**
 * A zod field for a whole number typed as text or sent as a JSON number, read by parseInteger;
 * `messages` gives the Dutch message per problem, `empty` the value of an empty text (refused when absent).
 */
export function integerField(options: {
  max?: number;
  empty?: number;
  messages: Record<IntegerProblem, string>;
}) {
  return z.union([z.number(), z.string()], { error: options.messages.invalid }).transform((input, ctx) => {
    const parsed = parseInteger(input, options.max);
    if (parsed.ok) return parsed.value;
    if (parsed.problem === 'empty' && options.empty !== undefined) return options.empty;
    ctx.addIssue({ code: 'custom', message: options.messages[parsed.problem] });
    return z.NEVER;
  });
}

/** The same message for every problem (a field whose one sentence already names the rule). */
export function oneMessage(message: string): Record<IntegerProblem, string> {
  return { empty: message, decimal: message, negative: message, invalid: message, tooLarge: message };
}

/** A count as Dutch text with thousands separators ('4.200', '12.500'). */
export function formatCount(value: number): string {
  return value.toLocaleString('nl-NL', { maximumFractionDigits: 0 });
}
