import { Group, Progress, Stack, Text } from '@mantine/core';
import { progressText, type Task, taskColor, taskStateLabel } from '../../../common/tasks';

/**
 * How far a running task is: its state and count ('1.500 van 20.000 rijen') over a
 * bar at its percentage. Before the task is known (just started) it reads 'In de wachtrij' at 0%.
 */
export function TaskProgress({
  task,
}: {
  task: Pick<Task, 'state' | 'percentage' | 'progress'> | undefined;
}) {
  const state = task?.state ?? 'queued';
  const percentage = task?.percentage ?? 0;
  const counted = progressText(task?.progress);
  return (
    <Stack gap={4} data-testid="task-progress" aria-live="polite">
      <Group justify="space-between" gap="xs">
        <Text size="sm">
          <span data-testid="task-progress-state">{taskStateLabel(state)}</span>
          {counted && (
            <>
              {' — '}
              <span data-testid="task-progress-count">{counted}</span>
            </>
          )}
        </Text>
        <Text size="sm">{percentage}%</Text>
      </Group>
      <Progress
        value={percentage}
        color={taskColor(state)}
        animated
        striped
        aria-label={counted ? `Voortgang: ${counted}` : `Voortgang ${percentage}%`}
      />
    </Stack>
  );
}
