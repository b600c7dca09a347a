import { MessageSchema } from '../../../common/api-error';
import { LabelCreateSchema, LabelListSchema } from '../../../common/labels';
import { http } from '../../lib/http';

/** Query key of the label list; the dataset and campaign forms share it. */
export const labelsKey = ['types'] as const;

/** GET /api/types: the label names, sorted. */
export const listLabels = () => http.get('/types', LabelListSchema);
/** POST /api/types: creates a label. */
export const createLabel = (type: string) => http.post('/types', { type }, LabelCreateSchema);
/** DELETE /api/types/{type}: deletes an unused label. */
export const deleteLabel = (type: string) => http.delete(`/types/${encodeURIComponent(type)}`, MessageSchema);
