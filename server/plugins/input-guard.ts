import type { FastifyInstance } from 'fastify';
import { findUnsafeText, TextInputMessages } from '../../common/text-input';
import { HttpError } from '../lib/http-errors';

/**
 * The edge rule for every route: a path parameter, query value or JSON body string holding a
 * NUL character or a lone UTF-16 surrogate is refused with 400 before any handler or schema sees
 * it, so such text never reaches PostgreSQL. Multipart fields are checked where they are read
 * (uploads/upload.ts), since their body is streamed, not parsed here.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const where =
      findUnsafeText(request.params, 'pad') ??
      findUnsafeText(request.query, 'query') ??
      findUnsafeText(request.body, 'body');
    if (where)
      throw new HttpError(400, TextInputMessages.unsafeText, [`${TextInputMessages.unsafeText}: ${where}`]);
  });
}
