import type { FastifyRequest } from 'fastify';
import { PAGINATION } from '../../../engine/constants';
import { normalisePage, type PageState } from '../../../engine/pagination';
import type { Participation } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { requireAuth } from '../../plugins/auth';

/**
 * P5: the participation every analytics route works on is the caller's own (an exhibitor's or
 * its team user's); ids in a request are only ever looked up inside it.
 */
export function ownParticipation(request: FastifyRequest): { participation: Participation; auth: ReturnType<typeof requireAuth> } {
  const auth = requireAuth(request);
  if (!auth.participation) throw new AppError('noPermission');
  return { participation: auth.participation, auth };
}

export const pageQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: PAGINATION.defaultPage },
    limit: { type: 'integer', enum: [...PAGINATION.pageSizes], default: PAGINATION.defaultLimit },
  },
  additionalProperties: false,
} as const;

export function pageOf(query: Partial<PageState>, total: number): PageState & { offset: number } {
  const state = normalisePage(query, total);
  return { ...state, offset: (state.page - 1) * state.limit };
}

export function pageSchema(item: object) {
  return {
    type: 'object',
    properties: { total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, items: { type: 'array', items: item } },
    required: ['total', 'page', 'limit', 'items'],
  } as const;
}

/** count(*) is a number from PGlite and a string from pg. */
export const toNumber = (value: unknown): number => Number(value ?? 0);
