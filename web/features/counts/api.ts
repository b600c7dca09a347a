import { z } from 'zod';
import { CountRowSchema } from '../../../common/counts';
import { http } from '../../lib/http';

/** Query key of the counts, per blacklist choice. */
export const countsKey = (useBlacklist: boolean) => ['count', useBlacklist] as const;

/** GET /api/count?useBlacklist=: the counts per dataset (spec 001 §7). */
export const listCounts = (useBlacklist: boolean) =>
  http.get(`/count?useBlacklist=${useBlacklist}`, z.array(CountRowSchema));
