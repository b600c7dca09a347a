import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconBan, IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { TASK_LIST_POLL_MS } from '../../../common/constants';
import {
  countFailedLookups,
  DnsCheckMessages,
  type DnsResult,
  isPreselected,
  isResolverProbablyDown,
} from '../../../common/dns-check';
import { isTaskFinished } from '../../../common/tasks';
import { confirmAction } from '../../components/confirm';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { formatDateTime } from '../../lib/dates';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { addBlacklistDomains } from '../blacklists/api';
import { TaskProgress } from '../tasks/task-progress';
import { useTask } from '../tasks/use-task';
import { dnsCheckKey, getDnsCheck, startDnsCheck } from './api';
import { DnsResults } from './dns-results';

/**
 * spec 001 §5: no MX, not found and invalid are preselected (domains already blacklisted are not);
 * a failed lookup never is.
 */
function preselection(results: DnsResult[]): Set<string> {
  return new Set(results.filter((r) => isPreselected(r.check) && !r.blacklisted).map((r) => r.domain));
}

/**
 * /dns-check 'DNS Check' (spec 001 §2, §4): Start runs the check as a task, followed with a
 * progress bar; the results of the last check (kept with its task, so a reload shows them) with
 * the suspicious domains preselected, a warning when most lookups failed (the resolver, not the
 * domains), and 'Voeg toe aan blacklist' for the selection after a confirmation that names how many
 * domains and addresses it hits.
 */
export function DnsCheckPage() {
  const client = useQueryClient();
  const state = useQuery({ queryKey: dnsCheckKey, queryFn: getDnsCheck });
  useFailedQueryAlert(state.error, DnsCheckMessages.loadFailed);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const last = state.data?.task ?? null;
  // A check still running when the screen opens (a reload) is followed too.
  const followed = taskId ?? (last && !isTaskFinished(last.state) ? last._id : null);
  const task = useTask(followed, TASK_LIST_POLL_MS);
  const running = Boolean(followed && (!task.data || !isTaskFinished(task.data.state)));

  // biome-ignore lint/correctness/useExhaustiveDependencies: the results are reloaded once when the followed task ends.
  useEffect(() => {
    if (!task.data || !isTaskFinished(task.data.state)) return;
    if (task.data.state === 'failed') showDanger(DnsCheckMessages.failedTitle, task.data.error ?? '');
    setTaskId(null);
    void client.invalidateQueries({ queryKey: dnsCheckKey });
  }, [task.data?.state]);

  useEffect(() => setSelected(preselection(state.data?.results ?? [])), [state.data]);

  const start = useMutation({
    mutationFn: startDnsCheck,
    onSuccess: ({ task: started }) => setTaskId(started._id),
    onError: (err) => showDanger(DnsCheckMessages.failedTitle, err),
  });
  const add = useMutation({
    mutationFn: () => addBlacklistDomains([...selected]),
    onSuccess: (result) => {
      showSuccess(DnsCheckMessages.addedTitle, DnsCheckMessages.added(result.saved));
      void client.invalidateQueries({ queryKey: dnsCheckKey });
      void client.invalidateQueries({ queryKey: ['blacklist'] });
    },
    onError: (err) => showDanger(DnsCheckMessages.addFailed, err),
  });
  const results = state.data?.results ?? [];
  const askAdd = () => {
    const addresses = results.reduce((sum, r) => (selected.has(r.domain) ? sum + r.count : sum), 0);
    confirmAction({
      title: DnsCheckMessages.confirmTitle,
      message: DnsCheckMessages.confirm(selected.size, addresses),
      onConfirm: () => add.mutate(),
    });
  };
  const lookups = countFailedLookups(results);

  return (
    <>
      <PageTitle>{DnsCheckMessages.title}</PageTitle>
      <Paper withBorder p="md">
        <Stack>
          <Group>
            <Button
              leftSection={<IconPlayerPlay size={16} />}
              onClick={() => start.mutate()}
              loading={start.isPending || running}
              disabled={running}
            >
              {DnsCheckMessages.start}
            </Button>
            {last && isTaskFinished(last.state) && !running && (
              <Text size="sm" c="dimmed">
                Laatste check: {formatDateTime(last.date)}
              </Text>
            )}
          </Group>
          {running && <TaskProgress task={task.data} />}
          {!running && last?.state === 'failed' && (
            <Alert color="red" title={DnsCheckMessages.failedTitle}>
              {last.error}
            </Alert>
          )}
          {!running && !last && state.data && <Text c="dimmed">{DnsCheckMessages.none}</Text>}
          {!running && last?.state === 'done' && state.data && (
            <>
              {isResolverProbablyDown(results) && (
                <Alert color="orange" title={DnsCheckMessages.resolverDownTitle}>
                  {DnsCheckMessages.resolverDown(lookups.failed, lookups.asked)}
                </Alert>
              )}
              <DnsResults results={results} selected={selected} onSelected={setSelected} />
              <Group>
                <Button
                  color="red"
                  leftSection={<IconBan size={16} />}
                  onClick={askAdd}
                  disabled={selected.size === 0}
                  loading={add.isPending}
                >
                  {DnsCheckMessages.addToBlacklist}
                </Button>
                <Text size="sm" c="dimmed">
                  {selected.size.toLocaleString('nl-NL')} geselecteerd
                </Text>
              </Group>
            </>
          )}
        </Stack>
      </Paper>
    </>
  );
}
