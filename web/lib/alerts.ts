import { notifications } from '@mantine/notifications';
import { ApiError } from './http';

// spec 001 §8: coloured alerts with a title and the server's message; danger red, success green, info blue.

/** Shows a red alert: the title and the error's message (the validation list when there is one). */
export function showDanger(title: string, error?: unknown): void {
  let message = '';
  if (error instanceof ApiError) message = error.errors.length > 1 ? error.errors.join('\n') : error.message;
  else if (error instanceof Error) message = error.message;
  else if (typeof error === 'string') message = error;
  notifications.show({
    color: 'red',
    title,
    message: message || title,
    autoClose: 8000,
    withBorder: true,
    styles: { description: { whiteSpace: 'pre-line' } },
  });
}

/** Shows a green alert. */
export function showSuccess(title: string, message?: string): void {
  notifications.show({ color: 'green', title, message: message ?? '', autoClose: 4000, withBorder: true });
}

/** Shows a blue alert; returns its id so it can be hidden when the work it announces ends. */
export function showInfo(title: string, message?: string, autoClose: number | false = 4000): string {
  return notifications.show({ color: 'blue', title, message: message ?? '', autoClose, withBorder: true });
}

/** Hides an alert by id. */
export function hideAlert(id: string): void {
  notifications.hide(id);
}
