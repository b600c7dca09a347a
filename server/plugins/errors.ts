import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-errors';
import { pgErrorCode } from '../lib/pg-errors';

const GENERIC = 'Er ging iets mis op de server';

/** Messages of the safety net for values PostgreSQL refused (SQLSTATE class 22, data exceptions). */
export const DataErrorMessages = {
  tooLong: 'Een waarde in het verzoek is te lang',
  outOfRange: 'Een getal in het verzoek is te groot of te klein',
  invalid: 'Een waarde in het verzoek is ongeldig',
} as const;

/** Installs the error and not-found handlers: every error answers `{message, errors?}`, never a stack. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .send({ ...error.details, message: error.message, errors: error.errors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = [...new Set(error.validation.map((v) => v.message ?? 'Ongeldige invoer'))];
      return reply.status(400).send({ message: errors.join('\n'), errors });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return reply.status(400).send({ message: 'Ongeldige JSON in het verzoek' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (body too large, bad content type, ...): safe to show.
      return reply.status(status).send({ message: error.message });
    }
    // A value PostgreSQL refused (too long for its column, a number out of range, an invalid
    // date): the request was wrong, not the server. Schemas should catch these first; the warning
    // shows which route lets one through.
    const code = pgErrorCode(error);
    if (code?.startsWith('22')) {
      request.log.warn({ err: error }, 'value refused by the database');
      const message =
        code === '22001'
          ? DataErrorMessages.tooLong
          : code === '22003'
            ? DataErrorMessages.outOfRange
            : DataErrorMessages.invalid;
      return reply.status(400).send({ message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: GENERIC });
  });
}

// Drizzle puts the statement's parameters into its error message ("Failed query: ...\nparams: ...").
const PARAMS = /\nparams:[\s\S]*$/;
// Fields of a PostgreSQL error that can hold stored values ("Key (x)=(secret) already exists.").
const VALUE_FIELDS = new Set(['detail', 'where', 'hint', 'internalQuery', 'params', 'parameters', 'values']);

/** An error as the log shows it. */
export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

/**
 * The logger's serializer for errors: type, message, stack, SQLSTATE and the safe fields of a
 * PostgreSQL error, following causes, but never a query's parameter values or an error detail
 * (they hold passwords' hashes, TOTP secrets and partner data). Returns a plain object for pino.
 */
export function safeErrorSerializer(err: unknown, depth = 0): SerializedError {
  if (!(err instanceof Error)) {
    return { type: typeof err, message: typeof err === 'string' ? err.replace(PARAMS, '') : '', stack: '' };
  }
  const message = err.message.replace(PARAMS, '');
  const out: SerializedError = {
    type: err.constructor?.name ?? 'Error',
    message,
    stack: (err.stack ?? '').replace(err.message, message).replace(PARAMS, ''),
  };
  for (const [key, value] of Object.entries(err)) {
    if (VALUE_FIELDS.has(key) || key === 'cause' || key === 'query') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out[key] = value;
  }
  // Drizzle's query text (SQL with $n placeholders) is safe; its params are not.
  const query = (err as { query?: unknown }).query;
  if (typeof query === 'string') out.query = query;
  if (err.cause !== undefined && depth < 4) out.cause = safeErrorSerializer(err.cause, depth + 1);
  return out;
}
