import { MessageSchema } from '../../../common/api-error';
import {
  type InterestTypeCreate,
  InterestTypeListSchema,
  InterestTypePageSchema,
} from '../../../common/interest-types';
import { http } from '../../lib/http';

/** The TanStack Query key of the full interest type list, and the prefix of its pages' keys. */
export const interestTypesKey = ['interest-types'] as const;
/** The TanStack Query key of one page of the interest type list, for a size and search term. */
export const interestTypePageKey = (page: number, size: number, term: string) =>
  ['interest-types', 'page', page, size, term] as const;

/** Fetches all interest type names (GET /api/click-interest-types). */
export const listInterestTypes = () => http.get('/click-interest-types', InterestTypeListSchema);
/** One 1-based page, searched when the term is not blank. */
export const pageInterestTypes = (page: number, size: number, term: string) =>
  term.trim()
    ? http.get(
        `/paginated-click-interest-types-search/${page}/${size}/${encodeURIComponent(term.trim())}`,
        InterestTypePageSchema,
      )
    : http.get(`/paginated-click-interest-types/${page}/${size}`, InterestTypePageSchema);
/** Creates an interest type (POST /api/click-interest-types). */
export const createInterestType = (body: InterestTypeCreate) =>
  http.post('/click-interest-types', body, MessageSchema);
/** Deletes an interest type by its name (DELETE /api/click-interest-types/:name). */
export const deleteInterestType = (name: string) =>
  http.delete(`/click-interest-types/${encodeURIComponent(name)}`, MessageSchema);
