import type { z } from 'zod';

/** An API failure: HTTP status, the server's message and, for validation, the list of rule messages. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly errors: string[] = [],
  ) {
    super(message);
  }
}

type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener = () => {};

/** Sets what happens on a 401/403 answer (the shell clears the account, which shows the login). */
export function setUnauthorizedHandler(listener: UnauthorizedListener): void {
  onUnauthorized = listener;
}

/** The options of one API call: whether it is an auth call, and a signal to abort it. */
export interface RequestOptions {
  /** Do not treat 401/403 as a logout (the login call itself). */
  isAuthCall?: boolean;
  signal?: AbortSignal;
}

async function request<T>(
  method: string,
  url: string,
  schema: z.ZodType<T> | null,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(`/api${url}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined || isForm ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'De server is niet bereikbaar');
  }
  const data = parseBody(await response.text());
  if (!response.ok || response.status === 206) {
    throw failure(response.status, data, options);
  }
  return schema ? schema.parse(data) : (data as T);
}

/** Parses an answer's text as JSON (or keeps the text). */
function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The ApiError of a failed answer (message, error or errorMessage; the rule list); 401/403 log out. */
function failure(status: number, data: unknown, options: RequestOptions): ApiError {
  if ((status === 401 || status === 403) && !options.isAuthCall) onUnauthorized();
  const obj = (typeof data === 'object' && data !== null ? data : {}) as {
    message?: string;
    error?: string;
    errorMessage?: string;
    errors?: string[];
  };
  const message =
    obj.message ?? obj.error ?? obj.errorMessage ?? plainTextMessage(data) ?? fallbackMessage(status);
  return new ApiError(status, message, Array.isArray(obj.errors) ? obj.errors : []);
}

/** A short plain-text answer as the message; not an HTML page (a proxy's error page, say). */
function plainTextMessage(data: unknown): string | undefined {
  if (typeof data !== 'string' || !data.trim() || data.length > 300 || /^\s*</.test(data)) return undefined;
  return data;
}

/**
 * The Dutch message of a failed answer that carries none of its own (the browser's status text is
 * English: 'Internal Server Error', 'Bad Gateway').
 */
function fallbackMessage(status: number): string {
  if (status === 502 || status === 503 || status === 504)
    return `De server is tijdelijk niet bereikbaar (${status}); probeer het zo opnieuw`;
  if (status >= 500) return `Er ging iets mis op de server (${status})`;
  return `Het verzoek is geweigerd (${status})`;
}

/**
 * Posts a multipart form under /api with XMLHttpRequest, so the upload's progress can be shown:
 * `onProgress` gets the sent percentage (0-100). Answers and failures as the other calls.
 */
export function uploadFile<T>(
  url: string,
  form: FormData,
  schema: z.ZodType<T>,
  onProgress?: (percent: number) => void,
  options: RequestOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${url}`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && onProgress)
        onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      const data = parseBody(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300 || xhr.status === 206) {
        reject(failure(xhr.status, data, options));
        return;
      }
      onProgress?.(100);
      try {
        resolve(schema.parse(data));
      } catch (err) {
        reject(err);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'De server is niet bereikbaar'));
    xhr.onabort = () => reject(new DOMException('Upload afgebroken', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** The one place that calls fetch: typed JSON calls under /api, parsed with the contract's schema. */
export const http = {
  get: <T>(url: string, schema: z.ZodType<T>, options?: RequestOptions) =>
    request('GET', url, schema, undefined, options),
  post: <T>(url: string, body: unknown, schema: z.ZodType<T>, options?: RequestOptions) =>
    request('POST', url, schema, body ?? {}, options),
  put: <T>(url: string, body: unknown, schema: z.ZodType<T>, options?: RequestOptions) =>
    request('PUT', url, schema, body ?? {}, options),
  delete: <T>(url: string, schema: z.ZodType<T>, options?: RequestOptions) =>
    request('DELETE', url, schema, undefined, options),
};
