import { useQuery } from '@tanstack/react-query';
import { type Task, taskSubjectLabels } from '../../../common/tasks';
import { getCampaign } from '../campaigns/api';

/** One line of a task card: what it names and the value (absent values are not shown). */
export interface TaskSubjectLine {
  label: string;
  value: string | null;
}

/**
 * The partner and dataset lines of a task card, named for the task's type. A results import keeps
 * its campaign's id in the partner column: the card shows the campaign's name (its id while the
 * name loads or when the campaign is gone).
 */
export function useTaskSubject(task: Task): TaskSubjectLine[] {
  const labels = taskSubjectLabels(task.type);
  const campaignId = task.type === 'mailing-results' ? task.partner : null;
  const campaign = useQuery({
    queryKey: ['task-campaign', campaignId],
    queryFn: () => getCampaign(campaignId!, true),
    enabled: campaignId !== null,
    staleTime: 60_000,
    retry: false,
  });
  return [
    { label: labels.partner, value: campaignId ? (campaign.data?.name ?? campaignId) : task.partner },
    { label: labels.dataset, value: task.dataset },
  ];
}
