import { useQuery } from '@tanstack/react-query';
import { isTaskFinished } from '../../../common/tasks';
import { getTask, taskKey } from './api';

/** Polls a task every `intervalMs` until it is done or failed (STYLE: one hook for all tasks). */
export function useTask(id: string | null | undefined, intervalMs: number) {
  return useQuery({
    queryKey: taskKey(id ?? ''),
    queryFn: () => getTask(id!),
    enabled: Boolean(id),
    refetchInterval: (query) =>
      query.state.data && isTaskFinished(query.state.data.state) ? false : intervalMs,
  });
}
