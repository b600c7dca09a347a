import { Alert, Group, Loader, Text } from '@mantine/core';
import { formatDateTime } from '../../lib/dates';
import { formatCount } from '../../lib/numbers';
import type { BuilderDraft } from '../selections/builder-store';
import { TaskProgress } from '../tasks/task-progress';

/**
 * The live count's state beside the results: the addresses found and when they were counted;
 * while a count runs (or is about to) the figures stay and say they are being recounted, with the
 * task's progress when the count went on as a task; why the draft cannot be counted, when it cannot.
 * Before the first figures (the pause before the first count included) it reads 'Tellen...'.
 */
export function CountStatus({ draft, isStale }: { draft: BuilderDraft; isStale: boolean }) {
  const total = draft.funnel?.total;
  return (
    <>
      <Group gap="md" data-testid="count-status" data-counting={draft.counting} data-stale={isStale}>
        {total !== undefined && (
          <Text fw={600} data-testid="count-total">
            {formatCount(total)} {total === 1 ? 'adres' : 'adressen'} gevonden
          </Text>
        )}
        {draft.countedAt && (
          <Text size="sm" c="dimmed" data-testid="counted-at">
            geteld op {formatDateTime(draft.countedAt)}
          </Text>
        )}
        {(draft.counting || (!draft.results && !draft.countError)) && (
          <Group gap={6} data-testid="count-running">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {draft.results ? 'Opnieuw tellen...' : 'Tellen...'}
            </Text>
          </Group>
        )}
        {!draft.counting && isStale && draft.results && !draft.countError && (
          <Text size="sm" c="dimmed">
            De query is gewijzigd: er wordt zo opnieuw geteld.
          </Text>
        )}
      </Group>
      {draft.counting && draft.progress && (
        <div data-testid="count-progress">
          <TaskProgress task={draft.progress} />
        </div>
      )}
      {draft.countError && (
        <Alert color="yellow" mt="xs" data-testid="count-error">
          {draft.countError}
        </Alert>
      )}
    </>
  );
}
