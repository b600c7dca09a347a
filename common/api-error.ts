import { z } from 'zod';

/** Body of every error answer of the API: a message, and the list when several rules failed. */
export const ApiErrorSchema = z.object({
  message: z.string(),
  error: z.string().optional(),
  errors: z.array(z.string()).optional(),
});
/** An error answer of the API, as ApiErrorSchema parses it. */
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** Body of simple confirmations. */
export const MessageSchema = z.object({ message: z.string() });

/**
 * The answer (503) to a request whose database work ran past the statement timeout
 * (STATEMENT_TIMEOUT_MS) and was cancelled, unless its route gives a message of its own.
 */
export const StatementTimeoutMessage =
  'Het opvragen duurde te lang en is afgebroken; probeer het later opnieuw';
