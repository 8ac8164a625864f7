import type { FastifyRequest } from 'fastify';
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

/** count(*) is a number from PGlite and a string from pg. */
export const toNumber = (value: unknown): number => Number(value ?? 0);
