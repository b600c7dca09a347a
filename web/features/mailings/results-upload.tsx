import { ActionIcon, FileButton, Loader, Tooltip } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { UPLOAD_TASK_POLL_MS } from '../../../common/constants';
import { ImportMessages, isCsvName, UploadMessages } from '../../../common/imports';
import { type Mailing, MailingMessages } from '../../../common/mailings';
import { showDanger, showInfo, showSuccess } from '../../lib/alerts';
import { useTask } from '../tasks/use-task';
import { mailingsKey, uploadResults } from './api';

/** A mailing row's results upload (DESIGN §6): picks a .csv, starts its task and reports when it ends. */
export function ResultsUploadButton({ mailing }: { mailing: Mailing }) {
  const client = useQueryClient();
  const [taskId, setTaskId] = useState<string | null>(null);
  const [isUploading, setUploading] = useState(false);
  const task = useTask(taskId, UPLOAD_TASK_POLL_MS);
  const state = task.data?.state;

  useEffect(() => {
    if (state === 'done') {
      const r = task.data?.result as { saved?: number; skipped?: number } | null;
      showSuccess(
        MailingMessages.uploadDone,
        `Opgeslagen: ${r?.saved ?? 0}, overgeslagen: ${r?.skipped ?? 0}`,
      );
      void client.invalidateQueries({ queryKey: mailingsKey(mailing.campaign) });
      setTaskId(null);
    } else if (state === 'failed') {
      showDanger(MailingMessages.uploadFailed, task.data?.error ?? '');
      setTaskId(null);
    }
  }, [state, task.data, client, mailing.campaign]);

  const handleFile = async (file: File | null) => {
    if (!file) return;
    // The file dialog lets any file through ('Alle bestanden'): refused here like in the drop zones.
    if (!isCsvName(file.name)) {
      showDanger(UploadMessages.refusedTitle, ImportMessages.onlyCsv);
      return;
    }
    setUploading(true);
    showInfo(MailingMessages.uploading, file.name);
    try {
      const started = await uploadResults(mailing.campaign, mailing._id, file);
      showInfo(MailingMessages.uploadStarted);
      setTaskId(started.task._id);
    } catch (err) {
      showDanger(MailingMessages.uploadFailed, err);
    } finally {
      setUploading(false);
    }
  };

  if (isUploading || taskId)
    return <Loader size="xs" aria-label={`Resultaten van ${mailing.name} worden verwerkt`} />;
  return (
    <FileButton onChange={handleFile} accept=".csv,text/csv">
      {(props) => (
        <Tooltip label="Resultaten uploaden">
          <ActionIcon variant="subtle" aria-label={`Resultaten uploaden voor ${mailing.name}`} {...props}>
            <IconChartBar size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </FileButton>
  );
}
