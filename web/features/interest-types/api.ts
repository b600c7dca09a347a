import { MessageSchema } from '../../../common/api-error';
import {
  type InterestTypeCreate,
  InterestTypeListSchema,
  InterestTypePageSchema,
} from '../../../common/interest-types';
import { http } from '../../lib/http';

export const interestTypesKey = ['interest-types'] as const;
export const interestTypePageKey = (page: number, size: number, term: string) =>
  ['interest-types', 'page', page, size, term] as const;

export const listInterestTypes = () => http.get('/click-interest-types', InterestTypeListSchema);
/** One 1-based page, searched when the term is not blank. */
export const pageInterestTypes = (page: number, size: number, term: string) =>
  term.trim()
    ? http.get(
        `/paginated-click-interest-types-search/${page}/${size}/${encodeURIComponent(term.trim())}`,
        InterestTypePageSchema,
      )
    : http.get(`/paginated-click-interest-types/${page}/${size}`, InterestTypePageSchema);
export const createInterestType = (body: InterestTypeCreate) =>
  http.post('/click-interest-types', body, MessageSchema);
export const deleteInterestType = (name: string) =>
  http.delete(`/click-interest-types/${encodeURIComponent(name)}`, MessageSchema);
