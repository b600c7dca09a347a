import type { z } from 'zod';

/** The outcome of checking a payload against a contract: field errors by path and all messages. */
export interface CheckResult<T> {
  data?: T;
  fieldErrors: Record<string, string>;
  messages: string[];
}

/**
 * Validates a payload (form values already converted, e.g. comma numbers parsed) with the
 * common schema; returns the parsed data or the Dutch messages per field and as a list.
 */
export function checkWith<S extends z.ZodType>(schema: S, payload: unknown): CheckResult<z.output<S>> {
  const result = schema.safeParse(payload);
  if (result.success) return { data: result.data, fieldErrors: {}, messages: [] };
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    fieldErrors[key] ??= issue.message;
  }
  return { fieldErrors, messages: [...new Set(result.error.issues.map((i) => i.message))] };
}
