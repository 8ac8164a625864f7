import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';

// Routes of the leads module (being built).
export default async function leadsRoutes(_app: FastifyInstance, _options: { config: Config }) {}
