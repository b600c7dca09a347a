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

/**
 * Dutch messages for the client errors Fastify and its plugins raise themselves (their own texts
 * are English); by status, for a code not listed. The partner API has its own English handler.
 */
export const ClientErrorMessages = {
  400: 'Ongeldig verzoek',
  404: 'Niet gevonden',
  405: 'Deze methode is hier niet toegestaan',
  406: 'Dit verzoek wordt niet geaccepteerd',
  408: 'Het verzoek duurde te lang',
  411: 'Het verzoek mist zijn lengte',
  413: 'Het verzoek is te groot',
  415: 'Dit soort inhoud wordt hier niet ondersteund',
  429: 'Te veel verzoeken; probeer het later opnieuw',
  default: 'Ongeldig verzoek',
} as const;

const CLIENT_ERROR_BY_CODE: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Het verzoek heeft geen inhoud, waar JSON verwacht werd',
  FST_ERR_CTP_BODY_TOO_LARGE: ClientErrorMessages[413],
  FST_REQ_FILE_TOO_LARGE: 'Het bestand is te groot',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ClientErrorMessages[415],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'De opgegeven lengte van het verzoek klopt niet',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Een upload moet als multipart/form-data worden verstuurd',
};

/** The Dutch message of one of Fastify's own client errors (`FST_...` codes), by code or else by status. */
export function clientErrorMessage(code: string, status: number): string {
  return (
    CLIENT_ERROR_BY_CODE[code] ??
    (ClientErrorMessages as Record<number | 'default', string>)[status] ??
    ClientErrorMessages.default
  );
}

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
      // Fastify's own client errors (body too large, bad content type, ...) in Dutch; a plugin's
      // error made with a message of ours (the login limit's) as it is.
      const own = typeof error.code === 'string' && error.code.startsWith('FST_');
      return reply
        .status(status)
        .send({ message: own ? clientErrorMessage(error.code, status) : error.message });
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
