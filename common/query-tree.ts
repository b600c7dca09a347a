import { z } from 'zod';
import { ageBounds, escapeWildcardTerm, MAX_AGE } from './query-operators';

// spec 001 §3 (query tree) and §5 (line rules); DESIGN §6 (leaf semantics). One contract for the
// selection builder in the browser and the selection engine that compiles it to SQL.

/** Dutch messages of the query tree and its lines (spec 001 §5). */
export const QueryMessages = {
  invalidNode:
    'Ongeldige query: elke regel is een EN-groep, een OF-groep, een uitsluiting (NIET) of een selectieregel',
  attributeRequired: 'Kies een kenmerk',
  operatorRequired: 'Kies een operator',
  valueRequired: 'Vul een waarde in',
  valuesRequired: 'Vul minstens één waarde in',
  rangeRequired: 'Vul een van- en een tot-waarde in',
  externalTypeInvalid: 'Kies het type: besturingssysteem, e-mailadres of domein',
  interestsRequired: 'Kies minstens één interesse',
  labelRequired: 'Kies een label',
  datasetRequired: 'Kies een bestand',
  fileRequired: 'Kies een .csv-bestand',
  mappingRequired: 'Map minstens één kolom',
  oneAttribute: 'Een selectieregel gaat over precies één kenmerk',
  ageInvalid: `Vul een leeftijd in hele jaren in (0 t/m ${MAX_AGE})`,
  ageOrder: 'De leeftijd van mag niet hoger zijn dan de leeftijd tot',
  emptyInvalid: 'Kies is leeg of is niet leeg',
  tooDeep: 'De query is te diep genest (maximaal 20 niveaus)',
  tooLarge: 'De query bevat te veel regels (maximaal 500)',
  submitRequired: 'Kies een campagne, een mailing en minstens één selectieregel',
} as const;

/** The deepest a query tree may nest: with the two limits below it keeps a query (and its SQL) bounded. */
export const MAX_QUERY_DEPTH = 20;
/** The most nodes a query tree may have in all. */
export const MAX_QUERY_NODES = 500;
/** The most values one selection line may list. */
export const MAX_LEAF_VALUES = 10_000;

/** The operators of an attribute line (spec 001 §5). */
export const ATTRIBUTE_OPERATORS = ['match', 'in', 'range', 'dateRange'] as const;
/** One operator of an attribute line: 'match', 'in', 'range' or 'dateRange'. */
export type AttributeOperator = (typeof ATTRIBUTE_OPERATORS)[number];
/**
 * The operators of an attribute line beyond spec 001 §5, each a leaf of its own: an age in years
 * on a birth date, is (not) empty, begins with, contains (query-operators.ts).
 */
export const MORE_ATTRIBUTE_OPERATORS = ['age', 'empty', 'startsWith', 'includes'] as const;
/** One operator of MORE_ATTRIBUTE_OPERATORS. */
export type MoreAttributeOperator = (typeof MORE_ATTRIBUTE_OPERATORS)[number];
/** The types of an 'Externe kenmerken' line. */
export const EXTERNAL_TYPES = ['os', 'id', 'domain'] as const;
/** One type of an 'Externe kenmerken' line: 'os', 'id' or 'domain'. */
export type ExternalType = (typeof EXTERNAL_TYPES)[number];
/** The base entries of a line file's mapping (spec 001 §3). */
export const FILE_BASES = ['id', 'dataset', 'datasetDescription', 'domain'] as const;
/** One base entry of a line file's mapping: 'id', 'dataset', 'datasetDescription' or 'domain'. */
export type FileBase = (typeof FILE_BASES)[number];

const text = z.string().max(1000);
const attributeName = z.string().trim().min(1, QueryMessages.attributeRequired).max(200);
/** A value of a list: trimmed; the list drops blanks and needs at least one value left. */
const valueList = (message: string) =>
  z
    .array(z.union([text, z.number()]))
    .max(MAX_LEAF_VALUES)
    .transform((values) => values.map((v) => String(v).trim()).filter((v) => v !== ''))
    .refine((values) => values.length > 0, message);
const bound = z.union([text, z.number()]).transform((v) => String(v).trim());
const rangePair = z
  .tuple([bound, bound])
  .refine(([from, to]) => from !== '' && to !== '', QueryMessages.rangeRequired);

/** An object with exactly one key (the attribute or the type of a leaf). */
const single = <T extends z.ZodType>(value: T) =>
  z
    .record(z.string(), value)
    .refine((r) => Object.keys(r).length === 1, QueryMessages.oneAttribute)
    .refine(
      (r) => Object.keys(r).every((k) => attributeName.safeParse(k).success),
      QueryMessages.attributeRequired,
    );

const MatchLeaf = z.strictObject({
  match: single(text.transform((v) => v.trim()).refine((v) => v !== '', QueryMessages.valueRequired)),
});
const InLeaf = z.strictObject({ in: single(valueList(QueryMessages.valuesRequired)) });
const RangeLeaf = z.strictObject({ range: single(rangePair) });
const DateRangeLeaf = z.strictObject({ dateRange: single(rangePair) });
const ageBound = z.union([text, z.number()]).transform((v, ctx) => {
  const t = String(v).trim();
  if (/^\d{1,3}$/.test(t) && Number(t) <= MAX_AGE) return Number(t);
  ctx.addIssue({ code: 'custom', message: QueryMessages.ageInvalid });
  return z.NEVER;
});
/** An age in years 'from t/m to' on a birth date attribute (ageBounds). */
const AgeLeaf = z.strictObject({
  age: single(z.tuple([ageBound, ageBound]).refine(([from, to]) => from <= to, QueryMessages.ageOrder)),
});
/** true: the attribute has no value (none, or blank); false: it has one. */
const EmptyLeaf = z.strictObject({ empty: single(z.boolean({ error: QueryMessages.emptyInvalid })) });
const literal = text.transform((v) => v.trim()).refine((v) => v !== '', QueryMessages.valueRequired);
/** The attribute begins with the text (literal: a `*` in it is no wildcard). */
const StartsWithLeaf = z.strictObject({ startsWith: single(literal) });
/** The attribute contains the text (literal). */
const IncludesLeaf = z.strictObject({ includes: single(literal) });
const ContainsLeaf = z.strictObject({
  contains: z.union(
    [
      z.strictObject({ os: valueList(QueryMessages.valuesRequired) }),
      z.strictObject({ id: valueList(QueryMessages.valuesRequired) }),
      z.strictObject({ domain: valueList(QueryMessages.valuesRequired) }),
    ],
    { error: QueryMessages.externalTypeInvalid },
  ),
});
const DatasetLeaf = z.strictObject({
  dataset: z.union(
    [
      z.strictObject({ id: z.string().trim().min(1, QueryMessages.datasetRequired).max(100) }),
      z.strictObject({ type: z.string().trim().min(1, QueryMessages.labelRequired).max(200) }),
    ],
    { error: QueryMessages.labelRequired },
  ),
});
const InterestsLeaf = z.strictObject({
  interests: z.union(
    [
      z.strictObject({ click: valueList(QueryMessages.interestsRequired) }),
      z.strictObject({ open: valueList(QueryMessages.interestsRequired) }),
    ],
    { error: QueryMessages.interestsRequired },
  ),
});
/** A file line (Bestandsmatch / Bestand uitsluiten): its stored file and the columns it matches on. */
const FileLeafSchema = z.strictObject({
  /** The line id, under which the file's rows are stored (selection_files). */
  id: z.string().trim().min(1, QueryMessages.fileRequired).max(100),
  /** The uploaded file's name, shown in the query text. */
  name: z.string().max(300).optional(),
  /** The mapped column names the records must equal (attributes or generated base names). */
  fields: z.array(z.string().trim().min(1).max(200)).min(1, QueryMessages.mappingRequired).max(100),
  selection: z.string().max(100).optional(),
  campaign: z.string().max(100).optional(),
  mailing: z.string().max(100).optional(),
});
/** A file line of the query tree (Bestandsmatch or Bestand uitsluiten), as its schema parses it. */
export type FileLeaf = z.infer<typeof FileLeafSchema>;
const IntersectLeaf = z.strictObject({ intersect: FileLeafSchema });
const ComplementLeaf = z.strictObject({ complement: FileLeafSchema });

/** A node of the query tree after validation (values trimmed, blanks dropped). */
export type QueryNode =
  | { and: QueryNode[] }
  | { or: QueryNode[] }
  | { not: QueryNode }
  | z.output<typeof MatchLeaf>
  | z.output<typeof InLeaf>
  | z.output<typeof RangeLeaf>
  | z.output<typeof DateRangeLeaf>
  | z.output<typeof AgeLeaf>
  | z.output<typeof EmptyLeaf>
  | z.output<typeof StartsWithLeaf>
  | z.output<typeof IncludesLeaf>
  | z.output<typeof ContainsLeaf>
  | z.output<typeof DatasetLeaf>
  | z.output<typeof InterestsLeaf>
  | z.output<typeof IntersectLeaf>
  | z.output<typeof ComplementLeaf>;

const NODE_SCHEMAS: Record<string, z.ZodType> = {
  match: MatchLeaf,
  in: InLeaf,
  range: RangeLeaf,
  dateRange: DateRangeLeaf,
  age: AgeLeaf,
  empty: EmptyLeaf,
  startsWith: StartsWithLeaf,
  includes: IncludesLeaf,
  contains: ContainsLeaf,
  dataset: DatasetLeaf,
  interests: InterestsLeaf,
  intersect: IntersectLeaf,
  complement: ComplementLeaf,
};
/** The kinds of leaf, by their key. */
export const LEAF_KINDS = Object.keys(NODE_SCHEMAS) as (keyof typeof NODE_SCHEMAS)[];

// A node is picked by its one key, so an error names the rule of that line instead of a union's
// twelve alternatives.
const QueryNodeSchema: z.ZodType<QueryNode, unknown> = z.lazy(() =>
  z.unknown().transform((value, ctx): QueryNode => {
    if (
      typeof value !== 'object' ||
      value === null ||
      Array.isArray(value) ||
      Object.keys(value).length !== 1
    ) {
      ctx.addIssue({ code: 'custom', message: QueryMessages.invalidNode });
      return z.NEVER;
    }
    const [key] = Object.keys(value);
    const schema =
      key === 'and' || key === 'or'
        ? z.strictObject({ [key]: z.array(QueryNodeSchema).max(MAX_QUERY_NODES) })
        : key === 'not'
          ? z.strictObject({ not: QueryNodeSchema })
          : NODE_SCHEMAS[key];
    if (!schema) {
      ctx.addIssue({ code: 'custom', message: QueryMessages.invalidNode });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', path: issue.path });
      return z.NEVER;
    }
    return parsed.data as QueryNode;
  }),
);

/** Removes every key starting with '_' (client-only state such as _file and _mappings), at any depth. */
export function stripClientKeys(value: unknown, depth = 0): unknown {
  if (depth > MAX_QUERY_DEPTH * 3 + 5) return value;
  if (Array.isArray(value)) return value.map((v) => stripClientKeys(v, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!key.startsWith('_')) out[key] = stripClientKeys(child, depth + 1);
  }
  return out;
}

/** The depth of a tree (a leaf is 1) and its number of nodes. */
export function measureQuery(node: unknown, depth = 1): { depth: number; nodes: number } {
  if (typeof node !== 'object' || node === null) return { depth, nodes: 1 };
  const children = 'and' in node ? node.and : 'or' in node ? node.or : 'not' in node ? [node.not] : [];
  let max = depth;
  let nodes = 1;
  for (const child of Array.isArray(children) ? children : []) {
    if (depth > MAX_QUERY_DEPTH + 1) break;
    const m = measureQuery(child, depth + 1);
    max = Math.max(max, m.depth);
    nodes += m.nodes;
  }
  return { depth: max, nodes };
}

/**
 * The query tree as stored and run: underscore keys stripped, size bounded, every leaf checked by
 * the line rules of spec 001 §5 with their Dutch messages.
 */
export const QueryTreeSchema = z.preprocess(
  (value) => stripClientKeys(value),
  z
    .unknown()
    .superRefine((value, ctx) => {
      const { depth, nodes } = measureQuery(value);
      if (depth > MAX_QUERY_DEPTH) ctx.addIssue({ code: 'custom', message: QueryMessages.tooDeep });
      if (nodes > MAX_QUERY_NODES) ctx.addIssue({ code: 'custom', message: QueryMessages.tooLarge });
    })
    .pipe(QueryNodeSchema),
);
/** A validated query tree, as QueryTreeSchema parses it. */
export type QueryTree = QueryNode;

/** The empty query (spec 001 §9): an 'and' with no entries, which selects everything. */
export const EMPTY_QUERY: QueryNode = { and: [] };

/** Whether a node is a leaf (a selection line), not and/or/not. */
export function isLeaf(node: QueryNode): boolean {
  return !('and' in node || 'or' in node || 'not' in node);
}

/** Whether the tree holds at least one real leaf (spec 001 §5 submit rule). */
export function hasRealLeaf(node: QueryNode): boolean {
  if ('and' in node) return node.and.some(hasRealLeaf);
  if ('or' in node) return node.or.some(hasRealLeaf);
  if ('not' in node) return hasRealLeaf(node.not);
  return true;
}

/** The leaves (selection lines) of a tree, top to bottom as the editor shows them. */
export function leavesOf(node: QueryNode): QueryNode[] {
  if ('and' in node) return node.and.flatMap(leavesOf);
  if ('or' in node) return node.or.flatMap(leavesOf);
  if ('not' in node) return leavesOf(node.not);
  return [node];
}

/** The line files (intersect/complement leaves) of a tree, in order. */
export function fileLeaves(node: QueryNode): FileLeaf[] {
  if ('and' in node) return node.and.flatMap(fileLeaves);
  if ('or' in node) return node.or.flatMap(fileLeaves);
  if ('not' in node) return fileLeaves(node.not);
  if ('intersect' in node) return [node.intersect];
  if ('complement' in node) return [node.complement];
  return [];
}

// Solr's reserved characters; a value holding one (or a space) is written as a quoted phrase.
const SOLR_SPECIAL = /[\s+\-&|!(){}[\]^"~?:\\/]/;
const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
/** A value as a Solr term; `*` stays a wildcard in match values. */
const term = (v: string, wildcard = false) =>
  v === '' ? '""' : SOLR_SPECIAL.test(v) || (!wildcard && v.includes('*')) ? quote(v) : v;
const list = (values: string[]) =>
  values.length === 1 ? term(values[0]) : `(${values.map((v) => term(v)).join(' OR ')})`;
const entry = <T>(record: Record<string, T>): [string, T] => Object.entries(record)[0];

/** The tree as the Solr-style text of the 'Query' tab (spec 001 §2), e.g. `(postcode:10* AND NOT gender:M)`. */
export function renderQuery(node: QueryNode, nested = false): string {
  if ('and' in node || 'or' in node) {
    const op = 'and' in node ? 'AND' : 'OR';
    const children = 'and' in node ? node.and : node.or;
    if (children.length === 0) return op === 'AND' ? '*:*' : 'NOT *:*';
    if (children.length === 1) return renderQuery(children[0], nested);
    const text = children.map((c) => renderQuery(c, true)).join(` ${op} `);
    return nested ? `(${text})` : text;
  }
  if ('not' in node) return `NOT ${renderQuery(node.not, true)}`;
  if ('match' in node) {
    const [attr, value] = entry(node.match);
    return `${attr}:${term(value, true)}`;
  }
  if ('in' in node) {
    const [attr, values] = entry(node.in);
    return `${attr}:${list(values)}`;
  }
  if ('range' in node || 'dateRange' in node) {
    const [attr, [from, to]] = entry('range' in node ? node.range : node.dateRange);
    return `${attr}:[${term(from)} TO ${term(to)}]`;
  }
  if ('age' in node) {
    const [attr, [from, to]] = entry(node.age);
    const [lo, hi] = ageBounds(from, to);
    return `${attr}:[${lo} TO ${hi}]`;
  }
  if ('empty' in node) {
    const [attr, isEmpty] = entry(node.empty);
    return `${isEmpty ? 'NOT ' : ''}${attr}:[* TO *]`;
  }
  if ('startsWith' in node) {
    const [attr, value] = entry(node.startsWith);
    return `${attr}:${escapeWildcardTerm(value)}*`;
  }
  if ('includes' in node) {
    const [attr, value] = entry(node.includes);
    return `${attr}:*${escapeWildcardTerm(value)}*`;
  }
  if ('contains' in node) {
    const [type, values] = entry(node.contains as Record<string, string[]>);
    return `${type}:${list(values)}`;
  }
  if ('dataset' in node) {
    return 'id' in node.dataset ? `dataset:${term(node.dataset.id)}` : `type:${term(node.dataset.type)}`;
  }
  if ('interests' in node) {
    const [kind, values] = entry(node.interests as Record<string, string[]>);
    return `${kind === 'click' ? 'clickInterests' : 'openInterests'}:${list(values)}`;
  }
  const [kind, file] = 'intersect' in node ? ['intersect', node.intersect] : ['complement', node.complement];
  return `{!${kind} file=${quote(file.name ?? file.id)} fields=${quote(file.fields.join(','))}}`;
}
