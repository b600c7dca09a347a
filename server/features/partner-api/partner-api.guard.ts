import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { PartnerApiMessages } from '../../../common/partner-api';
import { TextInputMessages } from '../../../common/text-input';
import type { AppContext } from '../../context';
import { BilingualHttpError, HttpError } from '../../lib/http-errors';
import { findDatasetByKey, type KeyDataset } from './partner-api.queries';

declare module 'fastify' {
  interface FastifyRequest {
    /** The dataset whose X-API-Key the partner API call carries (set by the partner API's guard). */
    partnerDataset?: KeyDataset;
  }
}

/** The dataset of a partner API call; for handlers, after the guard ensured one. */
export function keyDataset(request: FastifyRequest): KeyDataset {
  if (!request.partnerDataset) throw new HttpError(401, PartnerApiMessages.unauthorized);
  return request.partnerDataset;
}

/** The longest X-API-Key looked up (keys are 48 hex characters). */
const MAX_KEY_LENGTH = 200;

/**
 * The partner API's door (DESIGN §6), for the routes of the instance it is registered on: a call
 * needs the X-API-Key of an existing dataset, found in constant time in the key; anything else is
 * 401 without saying why (no key, a wrong key, a deleted dataset's key). A staff session cookie
 * counts for nothing here (the staff guard only looks at /api).
 */
export function registerPartnerKeyGuard(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', async (request, reply) => {
    const key = request.headers['x-api-key'];
    const dataset =
      typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH
        ? await findDatasetByKey(ctx.database, key)
        : undefined;
    if (!dataset) return reply.status(401).send({ message: PartnerApiMessages.unauthorized });
    request.partnerDataset = dataset;
  });
}

// A validation issue as a partner reads it: where (the field's path) and what.
function issueText(v: { instancePath?: string; message?: string }): string {
  const where = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  return where ? `${where}: ${v.message ?? 'invalid'}` : (v.message ?? 'invalid');
}

/**
 * The partner API's answers to errors (spec 001 §8), in English: the call's own HttpErrors as they
 * are; invalid input as 400 with the first reason as message and every reason in `errors` (an
 * invalid address in an upsert is 'Invalid e-mail list'); a body over the limit as 400 (one record)
 * or 413 (upsert), naming the limit; a refusal shared with the staff screens (BilingualHttpError)
 * in its English wording; anything else 500 'Failed to update/delete/upload' without detail; an
 * unknown call 404 'Not found: METHOD path'.
 */
export function registerPartnerErrors(app: FastifyInstance): void {
  // An unknown call under the base path: English too (the app's own 404 speaks Dutch).
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send({ message: PartnerApiMessages.notFound(request.method, request.url.split('?')[0]) }),
  );
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      // A refusal shared with the staff screens (an upload's file, a name) in its English wording.
      const message =
        error instanceof BilingualHttpError
          ? error.english
          : error.message === TextInputMessages.unsafeText
            ? PartnerApiMessages.badValue
            : error.message;
      return reply.status(error.statusCode).send({ message, errors: error.errors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = [...new Set(error.validation.map(issueText))].slice(0, 50);
      const first = error.validation[0]?.message ?? PartnerApiMessages.expectedObject;
      const isList = Array.isArray(request.body);
      const message =
        isList && error.validation.some((v) => v.message === PartnerApiMessages.invalidEmail)
          ? PartnerApiMessages.invalidEmailList
          : first;
      return reply.status(400).send({ message, errors });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const isUpsert = request.url.split('?')[0].endsWith('/upsert');
      return reply
        .status(isUpsert ? 413 : 400)
        .send({ message: isUpsert ? PartnerApiMessages.bodyTooLarge : PartnerApiMessages.tooLarge });
    }
    // Fastify's JSON parser refuses a '__proto__' key as invalid JSON too.
    if (
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return reply.status(400).send({ message: PartnerApiMessages.invalidJson });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ message: PartnerApiMessages.tooManyRequests });
    if (status >= 400 && status < 500) return reply.status(status).send({ message: error.message });
    request.log.error({ err: error }, 'partner API call failed');
    const message =
      request.method === 'DELETE'
        ? PartnerApiMessages.failedDelete
        : request.url.includes('/partnerlist/csv')
          ? PartnerApiMessages.failedUpload
          : PartnerApiMessages.failedUpdate;
    return reply.status(500).send({ message });
  });
}
