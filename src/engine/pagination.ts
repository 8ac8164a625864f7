import { PAGINATION } from './constants';
import type { PageState } from './schemas/page';

// Y8: pagination rules shared by every list.

export function pagerCount(viewportWidth: number): number {
  return viewportWidth < PAGINATION.narrowBelowPx ? PAGINATION.pagerCountNarrow : PAGINATION.pagerCountWide;
}

export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, limit)));
}

/** The page sizes a list offers (PAGINATION.pageSizes); the API refuses any other. */
export type PageSize = (typeof PAGINATION.pageSizes)[number];

/** A page size the API takes: `limit` when it is one of PAGINATION.pageSizes, else the default. */
export function pageSize(limit: number): PageSize {
  return PAGINATION.pageSizes.find((size) => size === limit) ?? PAGINATION.pageSizes.find((size) => size === PAGINATION.defaultLimit) ?? PAGINATION.pageSizes[0];
}

/** A page request made safe: unknown sizes fall back to the default, a page past the end to 1. */
export function normalisePage(state: Partial<PageState>, total: number): PageState {
  const limit = (PAGINATION.pageSizes as readonly number[]).includes(state.limit ?? -1) ? state.limit! : PAGINATION.defaultLimit;
  const requested = Number.isInteger(state.page) && state.page! >= 1 ? state.page! : PAGINATION.defaultPage;
  const page = requested > 1 && (requested - 1) * limit >= total ? PAGINATION.defaultPage : requested;
  return { page, limit };
}

/** Spec §9: when the page size changes and page × size exceeds the total, the page resets to 1. */
export function pageAfterSizeChange(page: number, newLimit: number, total: number): number {
  return page * newLimit > total ? PAGINATION.defaultPage : page;
}

/** Which page numbers the pager shows, with 'prev-more' / 'next-more' for the jump buttons. */
export function pagerItems(page: number, pages: number, count: number): Array<number | 'prev-more' | 'next-more'> {
  if (pages <= count) return Array.from({ length: pages }, (_, i) => i + 1);
  const inner = count - 2;
  const half = Math.floor(inner / 2);
  let start = Math.max(2, page - half);
  let end = start + inner - 1;
  if (end >= pages) {
    end = pages - 1;
    start = end - inner + 1;
  }
  const items: Array<number | 'prev-more' | 'next-more'> = [1];
  if (start > 2) items.push('prev-more');
  for (let n = start; n <= end; n += 1) items.push(n);
  if (end < pages - 1) items.push('next-more');
  items.push(pages);
  return items;
}
