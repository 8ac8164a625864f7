import { filtersOf, parseLeadQuery, type LeadFilters, type LeadQuery } from '../../../engine/leads-rules';

// The lead list's state lives in the URL (so "back" from a lead's detail keeps the filters, the
// sort and the page); these turn it into the API's parameters and back.

export interface LeadRow {
  id: number;
  badgeCode: string;
  badgeKnown: boolean;
  visitorName: string;
  salutation: string;
  company: string;
  businessNature: string;
  jobTitle: string;
  country: string;
  mobile: string;
  email: string;
  phone: string;
  address: string;
  notes: string;
  leadType: string | null;
  temperature: string | null;
  followUp: string | null;
  scannedBy: { id: number; name: string };
  scannedAt: string;
  /** LD1: every scan of the visitor's badge by the exhibitor's people (one lead per visitor). */
  scans?: { count: number; lastSeenAt: string; lastScannedBy: { id: number | null; name: string } };
  updatedAt: string | null;
  tagAnswers: Record<string, string[]>;
  interestedProducts: string[];
  businessCard: { id: string; name: string; size: number; type: string } | null;
}

export interface LeadPage {
  items: LeadRow[];
  total: number;
  /** Issue 15: how `total` was had (a count, an estimate, or "more than" it); older servers omit it. */
  totalKind?: 'exact' | 'about' | 'moreThan';
  page: number;
  limit: number;
  utcOffsetMinutes: number;
  /** Issue 14: when the organiser's retention period ends and the leads are erased; null = kept. */
  eraseAt?: string | null;
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
