/**
 * An error with an HTTP status and a user-facing (Dutch) message; the error handler sends it as is,
 * with `details` (e.g. the counts of a 409) as further fields of the body.
 */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly errors?: string[],
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * An HttpError of a refusal the staff screens and the partner API share (an upload's file, a name):
 * `message` in Dutch for the screens, `english` as the partner API gives it (spec 001 §8).
 */
export class BilingualHttpError extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    public readonly english: string,
  ) {
    super(statusCode, message);
  }
}

/** 400 with a message, optionally the list of rule messages. */
export const badRequest = (message: string, errors?: string[]) => new HttpError(400, message, errors);
/** 400 listing every rule message once: the message is the list, one a line. */
export function badRequestAll(messages: string[]): HttpError {
  const unique = [...new Set(messages)];
  return new HttpError(400, unique.join('\n'), unique);
}
/** 404 with a message. */
export const notFound = (message: string) => new HttpError(404, message);
/** 409 with a message. */
export const conflict = (message: string) => new HttpError(409, message);
/** 403 with a message. */
export const forbidden = (message: string) => new HttpError(403, message);
