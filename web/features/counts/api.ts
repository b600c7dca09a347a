import { CountAnswerSchema } from '../../../common/counts';
import { http } from '../../lib/http';

/** Query key of the counts, per blacklist choice. */
export const countsKey = (useBlacklist: boolean) => ['count', useBlacklist] as const;

/** GET /api/count?useBlacklist=&unique=true: the counts per dataset (spec 001 §7) and the unique row. */
export const listCounts = (useBlacklist: boolean) =>
  http.get(`/count?useBlacklist=${useBlacklist}&unique=true`, CountAnswerSchema);
