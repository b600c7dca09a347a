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
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok || response.status === 206) {
    if ((response.status === 401 || response.status === 403) && !options.isAuthCall) onUnauthorized();
    const obj = (typeof data === 'object' && data !== null ? data : {}) as {
      message?: string;
      error?: string;
      errorMessage?: string;
      errors?: string[];
    };
    const message = obj.message ?? obj.error ?? obj.errorMessage ?? (typeof data === 'string' && data ? data : response.statusText);
    throw new ApiError(response.status, message, Array.isArray(obj.errors) ? obj.errors : []);
  }
  return schema ? schema.parse(data) : (data as T);
}

/** The one place that calls fetch: typed JSON calls under /api, parsed with the contract's schema. */
export const http = {
  get: <T>(url: string, schema: z.ZodType<T>, options?: RequestOptions) => request('GET', url, schema, undefined, options),
  post: <T>(url: string, body: unknown, schema: z.ZodType<T>, options?: RequestOptions) =>
    request('POST', url, schema, body ?? {}, options),
  put: <T>(url: string, body: unknown, schema: z.ZodType<T>, options?: RequestOptions) =>
    request('PUT', url, schema, body ?? {}, options),
  delete: <T>(url: string, schema: z.ZodType<T>, options?: RequestOptions) =>
    request('DELETE', url, schema, undefined, options),
};
