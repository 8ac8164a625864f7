import { filtersOf, parseLeadQuery, type LeadFilters, type LeadQuery } from '../../../engine/leads-rules';
import { pageSize } from '../../../engine/pagination';
import type { ApiData, ApiQuery } from '../../../lib/typed-api';

// The lead list's state lives in the URL (so "back" from a lead's detail keeps the filters, the
// sort and the page); these turn it into the API's parameters and back.

/** One lead as the list and the detail answer it (the route's schema). */
export type LeadRow = ApiData<'GET', '/leads'>['items'][number];

/** What GET /leads takes, from the URL's state; values at their defaults are left out. */
export function listRequestQuery(query: Partial<LeadQuery>): NonNullable<ApiQuery<'GET', '/leads'>> {
  const { page, limit, sort, order } = query;
  return {
    ...filtersOf(query as LeadFilters),
    ...(page !== undefined && page !== 1 ? { page } : {}),
    ...(limit !== undefined && limit !== 20 ? { limit: pageSize(limit) } : {}),
    ...(sort !== undefined && sort !== 'scannedAt' ? { sort } : {}),
    ...(order !== undefined && order !== 'desc' ? { order } : {}),
  };
}

export function queryFromSearch(search: URLSearchParams): LeadQuery {
  return parseLeadQuery(Object.fromEntries(search.entries()));
}

/** Only what differs from the defaults goes into the URL and the request. */
export function searchFromQuery(query: Partial<LeadQuery>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...filtersOf(query as LeadFilters), page: query.page, limit: query.limit, sort: query.sort, order: query.order })) {
    if (value === undefined || value === '') continue;
    if ((key === 'page' && value === 1) || (key === 'limit' && value === 20) || (key === 'sort' && value === 'scannedAt') || (key === 'order' && value === 'desc')) continue;
    out[key] = String(value);
  }
  return out;
}
