import { QueryMessages, type QueryNode, QueryTreeSchema } from '../../../common/query-tree';

// spec 001 §5 line rules: a line is checked by the same contract the server stores it with, so the
// editor refuses exactly what the engine would, with the same Dutch messages.

/** The validated line (values trimmed, blanks dropped) or the Dutch messages of the rules it breaks. */
export function checkLine(line: unknown): { node: QueryNode } | { errors: string[] } {
  const parsed = QueryTreeSchema.safeParse(line);
  if (parsed.success) return { node: parsed.data };
  return { errors: [...new Set(parsed.error.issues.map((i) => i.message))] };
}

/**
 * An attribute line from the form's fields (spec 001 §5: attribute and operator required); the
 * operator 'notEmpty' is the line `empty: false`.
 */
export function attributeLine(
  attribute: string,
  operator: string | null,
  value: { match: string; values: string[]; from: string; to: string },
): { node: QueryNode } | { errors: string[] } {
  const errors: string[] = [];
  if (attribute.trim() === '') errors.push(QueryMessages.attributeRequired);
  if (!operator) errors.push(QueryMessages.operatorRequired);
  if (errors.length > 0 || !operator) return { errors };
  const attr = attribute.trim();
  if (operator === 'empty' || operator === 'notEmpty')
    return checkLine({ empty: { [attr]: operator === 'empty' } });
  const text = ['match', 'startsWith', 'includes'].includes(operator);
  const body = text ? value.match : operator === 'in' ? value.values : [value.from, value.to];
  return checkLine({ [operator]: { [attr]: body } });
}
