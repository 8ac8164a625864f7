import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';

// Routes of the analytics module (being built).
export default async function analyticsRoutes(_app: FastifyInstance, _options: { config: Config }) {}
