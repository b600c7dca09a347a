import { Card, Center, Group, Loader, Progress, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TASK_LIST_POLL_MS, TASK_SEARCH_MAX_LENGTH } from '../../../common/constants';
import {
  isTaskFinished,
  progressText,
  type Task,
  TaskMessages,
  taskColor,
  taskStateLabel,
  taskTypeLabel,
} from '../../../common/tasks';
import { PageTitle } from '../../components/page-title';
import { formatDateTime } from '../../lib/dates';
import { SkippedRows } from '../imports/skipped-rows';
import { listTasks, tasksKey } from './api';
import { useTaskSubject } from './task-subject';
import { taskMatches, taskSummary } from './task-summary';

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  if (!value) return null;
  return (
    <Text size="sm">
      <Text span fw={600}>
        {label}:
      </Text>{' '}
      {value}
    </Text>
  );
}

function TaskCard({ task }: { task: Task }) {
  const color = taskColor(task.state);
  const summary = taskSummary(task);
  const subject = useTaskSubject(task);
  const isRunning = !isTaskFinished(task.state);
  // How far it is as a count ('1.500 van 20.000 rijen'), beside the bar.
  const counted = progressText(task.progress);
  return (
    <Card
      withBorder
      padding="sm"
      data-testid="task-card"
      data-state={task.state}
      data-color={color}
      style={{ borderLeft: `6px solid var(--mantine-color-${color}-6)` }}
    >
      <Stack gap={2}>
        <Group justify="space-between">
          <Text fw={700} data-testid="task-type">
            {taskTypeLabel(task.type)}
          </Text>
          <Text size="sm" c="dimmed">
            {formatDateTime(task.date)}
          </Text>
        </Group>
        {subject.map((line) => (
          <Field key={line.label} label={line.label} value={line.value} />
        ))}
        <Field label="Gebruiker" value={task.username} />
        <Text size="sm" c={color}>
          <Text span fw={600} c="black">
            Status:
          </Text>{' '}
          <span data-testid="task-state">{taskStateLabel(task.state)}</span>
          {task.error ? ` (${task.error})` : ''}
        </Text>
        <Field label="Bestandsnaam" value={task.file} />
        <Text size="xs" c="dimmed">
          Id: {task._id}
        </Text>
        {summary && (
          <Text size="sm" data-testid="task-summary">
            {summary}
          </Text>
        )}
        <SkippedRows task={task} compact />
        {/* A finished task's bar stands still: a failed one keeps where it stopped, in red. */}
        {task.percentage < 100 && counted && (
          <Text size="sm" mt={4} data-testid="task-progress-count">
            {counted} ({task.percentage}%)
          </Text>
        )}
        {task.percentage < 100 && (
          <Progress
            value={task.percentage}
            color={color}
            mt={4}
            aria-label={counted ? `Voortgang: ${counted}` : `Voortgang ${task.percentage}%`}
            animated={isRunning}
            striped={isRunning}
          />
        )}
      </Stack>
    </Card>
  );
}

/** /tasks 'Taken': the task list polled every second, searchable, as coloured cards. */
export function TaskListPage() {
  const [term, setTerm] = useState('');
  const tasks = useQuery({ queryKey: tasksKey, queryFn: listTasks, refetchInterval: TASK_LIST_POLL_MS });
  const visible = (tasks.data ?? []).filter((t) => taskMatches(t, term));
  return (
    <>
      <PageTitle>Taken</PageTitle>
      <TextInput
        mb="md"
        placeholder="Zoek op type, gebruiker, status of fout"
        aria-label="Zoeken"
        leftSection={<IconSearch size={16} />}
        maxLength={TASK_SEARCH_MAX_LENGTH}
        value={term}
        onChange={(e) => setTerm(e.currentTarget.value)}
      />
      {tasks.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : visible.length === 0 ? (
        <Text c="dimmed">{term.trim() ? TaskMessages.emptySearch(term.trim()) : TaskMessages.empty}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
          {visible.map((t) => (
            <TaskCard key={t._id} task={t} />
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
