import { describe, expect, it } from 'vitest';
import { PAGINATION } from './constants';
import { pageAfterSizeChange, pageCount, pagerCount, pagerItems, normalisePage, pageSize } from './pagination';

describe('Y8 pagerCount', () => {
  it('Y8 shows 5 pager buttons below 992 px', () => {
    expect(pagerCount(991)).toBe(5);
    expect(pagerCount(375)).toBe(5);
  });

  it('Y8 shows 7 pager buttons from 992 px', () => {
    expect(pagerCount(992)).toBe(7);
    expect(pagerCount(1920)).toBe(7);
  });
});

describe('Y8 pageCount', () => {
  it('Y8 rounds up and never goes below one page', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
    expect(pageCount(95, 10)).toBe(10);
    expect(pageCount(-5, 20)).toBe(1);
    expect(pageCount(5, 0)).toBe(5);
  });
});

describe('Y8 pagerItems', () => {
  it('Y8 lists every page when there are no more pages than buttons', () => {
    expect(pagerItems(1, 1, 7)).toEqual([1]);
    expect(pagerItems(3, 5, 7)).toEqual([1, 2, 3, 4, 5]);
    expect(pagerItems(7, 7, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pagerItems(2, 5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('Y8 at the start of many pages: first pages, next-more, last page', () => {
    expect(pagerItems(1, 20, 7)).toEqual([1, 2, 3, 4, 5, 6, 'next-more', 20]);
    expect(pagerItems(4, 20, 7)).toEqual([1, 2, 3, 4, 5, 6, 'next-more', 20]);
    expect(pagerItems(1, 8, 7)).toEqual([1, 2, 3, 4, 5, 6, 'next-more', 8]);
  });

  it('Y8 in the middle: both jump buttons around the current page', () => {
    expect(pagerItems(5, 20, 7)).toEqual([1, 'prev-more', 3, 4, 5, 6, 7, 'next-more', 20]);
    expect(pagerItems(10, 20, 7)).toEqual([1, 'prev-more', 8, 9, 10, 11, 12, 'next-more', 20]);
    expect(pagerItems(16, 20, 7)).toEqual([1, 'prev-more', 14, 15, 16, 17, 18, 'next-more', 20]);
  });

  it('Y8 at the end: first page, prev-more, last pages', () => {
    expect(pagerItems(17, 20, 7)).toEqual([1, 'prev-more', 15, 16, 17, 18, 19, 20]);
    expect(pagerItems(20, 20, 7)).toEqual([1, 'prev-more', 15, 16, 17, 18, 19, 20]);
  });

  it('Y8 with the narrow pager count of 5', () => {
    expect(pagerItems(1, 10, 5)).toEqual([1, 2, 3, 4, 'next-more', 10]);
    expect(pagerItems(5, 10, 5)).toEqual([1, 'prev-more', 4, 5, 6, 'next-more', 10]);
    expect(pagerItems(10, 10, 5)).toEqual([1, 'prev-more', 7, 8, 9, 10]);
    expect(pagerItems(3, 6, 5)).toEqual([1, 2, 3, 4, 'next-more', 6]);
  });
});

describe('Y8 normalisePage', () => {
  it('Y8 defaults to page 1 and limit 20', () => {
    expect(normalisePage({}, 100)).toEqual({ page: 1, limit: 20 });
  });

  it('Y8 keeps a valid page and an offered page size', () => {
    expect(normalisePage({ page: 3, limit: 10 }, 100)).toEqual({ page: 3, limit: 10 });
    expect(normalisePage({ page: 2, limit: 50 }, 51)).toEqual({ page: 2, limit: 50 });
    expect(normalisePage({ page: 3, limit: 20 }, 45)).toEqual({ page: 3, limit: 20 });
  });

  it('Y8 accepts each offered size 10/20/30/50 and replaces any other with 20', () => {
    for (const limit of [10, 20, 30, 50]) expect(normalisePage({ limit }, 0).limit).toBe(limit);
    for (const limit of [0, 15, 25, 100, -10]) expect(normalisePage({ limit }, 0).limit).toBe(20);
  });

  it('Y8 replaces a page that is not a positive integer with 1', () => {
    expect(normalisePage({ page: 0 }, 100).page).toBe(1);
    expect(normalisePage({ page: -2 }, 100).page).toBe(1);
    expect(normalisePage({ page: 2.5 }, 100).page).toBe(1);
    expect(normalisePage({ page: Number.NaN }, 100).page).toBe(1);
  });

  it('Y8 resets a page past the end to 1', () => {
    expect(normalisePage({ page: 4, limit: 20 }, 45)).toEqual({ page: 1, limit: 20 });
    expect(normalisePage({ page: 3, limit: 20 }, 40)).toEqual({ page: 1, limit: 20 });
    expect(normalisePage({ page: 2, limit: 20 }, 0)).toEqual({ page: 1, limit: 20 });
  });

  it('Y8 keeps page 1 of an empty list', () => {
    expect(normalisePage({ page: 1, limit: 30 }, 0)).toEqual({ page: 1, limit: 30 });
  });
});

describe('Y8 pageAfterSizeChange', () => {
  it('Y8 keeps the page while page × size stays within the total', () => {
    expect(pageAfterSizeChange(2, 20, 100)).toBe(2);
    expect(pageAfterSizeChange(5, 20, 100)).toBe(5);
  });

  it('Y8 resets the page to 1 when page × size exceeds the total', () => {
    expect(pageAfterSizeChange(6, 20, 100)).toBe(1);
    expect(pageAfterSizeChange(3, 50, 120)).toBe(1);
    expect(pageAfterSizeChange(2, 10, 15)).toBe(1);
  });
});

describe('pageSize: the typed API takes only the offered sizes', () => {
  it('keeps an offered size and falls back to the default for any other', () => {
    expect(pageSize(50)).toBe(50);
    expect(pageSize(10)).toBe(10);
    expect(pageSize(7)).toBe(PAGINATION.defaultLimit);
    expect(pageSize(Number.NaN)).toBe(PAGINATION.defaultLimit);
  });
});
