import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';

// Routes of the members module (being built).
export default async function membersRoutes(_app: FastifyInstance, _options: { config: Config }) {}
