import { LiveCountAnswerSchema, PreviewSchema, type SelectionDraft } from '../../../common/live-count';
import { TaskSchema } from '../../../common/tasks';
import { http } from '../../lib/http';

const enc = encodeURIComponent;
const selectionsUrl = (c: string, m: string) => `/campaigns/${enc(c)}/mailings/${enc(m)}/selections`;

/** The body of the live count and the preview: the draft's tree and settings (SelectionDraftSchema's input). */
export type DraftBody = Omit<Partial<SelectionDraft>, 'pressure' | 'query' | 'useDatasetsFrom'> & {
  query: unknown;
  pressure: { age: string | null };
  useDatasetsFrom: { campaign: string; mailing?: string }[];
  selectionId: string | null;
};

/** POST .../selections/live-count: the draft counted now, or the task that goes on counting it. */
export const liveCount = (c: string, m: string, body: DraftBody, signal?: AbortSignal) =>
  http.post(`${selectionsUrl(c, m)}/live-count`, body, LiveCountAnswerSchema, { signal });

/** POST .../selections/preview: the first addresses the draft's count finds. */
export const previewDraft = (c: string, m: string, body: DraftBody, signal?: AbortSignal) =>
  http.post(`${selectionsUrl(c, m)}/preview`, body, PreviewSchema, { signal });

/** POST /tasks/{id}/cancel: stops a live count that went on as a task. */
export const cancelTask = (id: string) => http.post(`/tasks/${enc(id)}/cancel`, {}, TaskSchema);
