import type { JSONSchema } from 'json-schema-to-ts';
import { PAGINATION } from '../../engine/constants';
import { normalisePage } from '../../engine/pagination';
import { pageStateSchema, type PageState } from '../../engine/schemas/page';

// One page of a list, as spec §3/§9 pagination: page (default 1), limit 10/20/30/50 (default
// 20), total; a page past the end answers page 1. Shared by every paginated route.

export const pageQuerySchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: PAGINATION.defaultPage },
    limit: { type: 'integer', enum: [...PAGINATION.pageSizes], default: PAGINATION.defaultLimit },
  },
  additionalProperties: false,
} as const;

/** The response schema of a page of `item`, with any extra top-level properties. */
export function pageSchema<const Item extends JSONSchema, const Extra extends Record<string, JSONSchema> = {}>(item: Item, extra: Extra = {} as Extra) {
  return {
    type: 'object',
    properties: { total: { type: 'integer' }, ...pageStateSchema.properties, items: { type: 'array', items: item }, ...extra },
    required: ['total', 'page', 'limit', 'items'],
  } as const;
}

/** The page to answer for a request and a total, with the rows to skip. */
export function pageOf(query: Partial<PageState>, total: number): PageState & { offset: number } {
  const state = normalisePage({ page: query.page, limit: query.limit }, total);
  return { ...state, offset: (state.page - 1) * state.limit };
}
