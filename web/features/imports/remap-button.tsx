import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { UPLOAD_TASK_POLL_MS } from '../../../common/constants';
import {
  MappingScreenMessages,
  type UploadResult,
  uploadResultOf,
  uploadSummary,
} from '../../../common/imports';
import { MappingMessages } from '../../../common/mappings';
import type { Task } from '../../../common/tasks';
import { confirmAction } from '../../components/confirm';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useTask } from '../tasks/use-task';
import { startRemap } from './api';

/**
 * 'Mapping doorvoeren': applies the saved mapping to the dataset's stored records as a remap task,
 * polled every 2 s as an import is (it is one, from the stored rows: its rows done of total then
 * move visibly); disabled with a spinner while it runs, then 'Mapping doorgevoerd' with the
 * counters. `onTask` hears the running task (for its progress bar), then null. With unsaved
 * changes the user is asked first (the saved mapping is what is applied).
 */
export function RemapButton(props: {
  partnerId: string;
  datasetId: string;
  dirty: boolean;
  onFinished: (result: UploadResult) => void;
  onTask?: (task: Task | undefined | null) => void;
}) {
  const client = useQueryClient();
  const [taskId, setTaskId] = useState<string | null>(null);
  const handled = useRef<string | null>(null);
  const task = useTask(taskId, UPLOAD_TASK_POLL_MS);
  const onTask = useRef(props.onTask);
  onTask.current = props.onTask;
  // undefined: started, not read yet; null: none runs.
  useEffect(() => onTask.current?.(taskId ? task.data : null), [taskId, task.data]);
  const start = useMutation({
    mutationFn: () => startRemap(props.partnerId, props.datasetId),
    onSuccess: ({ task: started }) => setTaskId(started._id),
    onError: (err) => showDanger(MappingScreenMessages.remapFailed, err),
  });

  const onFinished = useRef(props.onFinished);
  onFinished.current = props.onFinished;
  useEffect(() => {
    const t = task.data;
    if (!t || t._id !== taskId || handled.current === t._id) return;
    if (t.state !== 'done' && t.state !== 'failed') return;
    handled.current = t._id;
    setTaskId(null);
    if (t.state === 'failed') {
      showDanger(MappingScreenMessages.remapFailed, t.error ?? t.message ?? t.state);
      return;
    }
    const result = uploadResultOf(t.result);
    showSuccess(MappingMessages.remapped, uploadSummary(result));
    onFinished.current(result);
    void client.invalidateQueries({ queryKey: ['datasets', props.partnerId] });
  }, [task.data, taskId, client, props.partnerId]);
  useEffect(() => {
    if (!task.error || !taskId) return;
    setTaskId(null);
    showDanger(MappingScreenMessages.remapFailed, task.error);
  }, [task.error, taskId]);

  const running = start.isPending || taskId !== null;
  const run = () =>
    props.dirty
      ? confirmAction({
          title: MappingScreenMessages.remapUnsavedTitle,
          message: MappingScreenMessages.remapUnsaved,
          onConfirm: () => start.mutate(),
        })
      : start.mutate();
  return (
    <Button
      variant="light"
      leftSection={<IconRefresh size={16} />}
      loading={running}
      disabled={running}
      onClick={run}
    >
      {MappingMessages.remapButton}
    </Button>
  );
}
