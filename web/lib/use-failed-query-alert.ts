import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { showDanger } from './alerts';
import { ApiError } from './http';

/**
 * Shows the red alert `title` with the error's message when a query fails (spec 001 §8); with
 * `notFoundTo`, a 404 (the item is gone) also navigates there, back to its list.
 */
export function useFailedQueryAlert(error: Error | null, title: string, notFoundTo?: string): void {
  const navigate = useNavigate();
  // biome-ignore lint/correctness/useExhaustiveDependencies: one alert per failure; a new navigate (after any navigation) or path is no new failure.
  useEffect(() => {
    if (!error) return;
    showDanger(title, error);
    if (notFoundTo !== undefined && error instanceof ApiError && error.status === 404) navigate(notFoundTo);
  }, [error]);
}
