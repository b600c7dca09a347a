import { z } from 'zod';

/** A JSON Schema node as zod writes it, reduced to what the sample builder reads. */
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

/** The JSON Schema of a route's zod schema (its input side), or undefined when it has none. */
export function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return undefined;
  }
}

const STRING_CANDIDATES = [
  'fuzz',
  'Fuzz1',
  'fuzz@voorbeeld.nl',
  '2024-01-31',
  '31-01-2024',
  '1',
  'a',
  'fuzz_1',
];

/**
 * Values by field name that refinements accept where a generic sample would not (passwords with
 * their rules, e-mail, dates in either of the app's formats); variant n takes the n-th candidate.
 */
const FIELD_HINTS: Record<string, unknown[]> = {
  password: ['Welkom12345!'],
  email: ['fuzz@voorbeeld.nl'],
  start: ['01-01-2024', '2024-01-01'],
  end: ['31-12-2024', '2024-12-31'],
  budget: ['100'],
  addresses: [10],
};

/** How many baseline variants the field hints give (try each until one is accepted). */
export const SAMPLE_VARIANTS = 2;

/** A value that the schema is likely to accept (a valid baseline the fuzzer then breaks one field of). */
export function sampleOf(s: JsonSchema | undefined, variant = 0, depth = 0): unknown {
  if (!s || depth > 6) return 'fuzz';
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return sampleOf(alt.find((a) => a.type !== 'null') ?? alt[0], variant, depth + 1);
  if (s.allOf?.length) return sampleOf(s.allOf[0], variant, depth + 1);
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type) {
    case 'string': {
      if (s.format === 'email') return 'fuzz@voorbeeld.nl';
      if (s.format === 'date-time') return '2024-01-31T12:00:00.000Z';
      if (s.format === 'date') return '2024-01-31';
      let value = STRING_CANDIDATES[0];
      if (s.pattern) {
        const re = new RegExp(s.pattern);
        value = STRING_CANDIDATES.find((c) => re.test(c)) ?? value;
      }
      if (s.minLength && value.length < s.minLength) value = value.padEnd(s.minLength, 'x');
      if (s.maxLength !== undefined && value.length > s.maxLength) value = value.slice(0, s.maxLength);
      return value;
    }
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sampleOf(s.items, variant, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(s.properties ?? {})) {
        const hints = FIELD_HINTS[key] ?? (/password/i.test(key) ? FIELD_HINTS.password : undefined);
        out[key] = hints ? hints[Math.min(variant, hints.length - 1)] : sampleOf(child, variant, depth + 1);
      }
      return out;
    }
    default:
      return 'fuzz';
  }
}

/** Values no field should ever answer 5xx to: NUL, lone surrogates, very long text, paths, wrong types. */
export const BAD_VALUES: unknown[] = [
  '\u0000',
  'a\u0000b',
  'a\udfffb',
  '\ud800',
  'x'.repeat(5000),
  '../../etc/passwd',
  '',
  ' ',
  '%00',
  "Robert'); DROP TABLE users;--",
  2 ** 64,
  -1,
  1.5,
  1e308,
  0,
  true,
  null,
  [],
  {},
  ['\u0000'],
  ['x'.repeat(5000)],
  { '\u0000': 1 },
  '2024-02-31',
  '99-99-9999',
];

/**
 * Bad path parameters as they appear in a URL (already percent-encoded): NUL, a lone surrogate's
 * bytes, overlong text, traversal, numbers out of range and odd encodings.
 */
export const BAD_PARAMS: string[] = [
  '%00',
  'a%00b',
  '%ED%BF%BF',
  '%ED%A0%80',
  'x'.repeat(5000),
  'x'.repeat(1999),
  '..%2F..%2Fetc%2Fpasswd',
  '..',
  '-1',
  '0',
  '99999999999999999999',
  '1.5',
  '1e308',
  'NaN',
  '%25',
  '%20',
  '%C3%A9',
  '%FF',
  '%E2%80%8B',
];

/** Every path inside a sample object (one level of nesting), for replacing one field at a time. */
export function fieldPaths(sample: unknown): string[][] {
  if (typeof sample !== 'object' || sample === null || Array.isArray(sample)) return [];
  const paths: string[][] = [];
  for (const [key, child] of Object.entries(sample)) {
    paths.push([key]);
    if (typeof child === 'object' && child !== null && !Array.isArray(child)) {
      for (const inner of Object.keys(child)) paths.push([key, inner]);
    }
  }
  return paths;
}

/** A deep copy of the sample with the value at `path` replaced. */
export function withValue(sample: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(sample) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}
