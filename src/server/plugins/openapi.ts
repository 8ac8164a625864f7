import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import { API_BASE } from '../../engine/constants';

/** The OpenAPI document, generated from the route schemas, at /oga/openapi.json. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Exhibitor Portal API',
          version: '1',
          description:
            'Every response is `{ code, msg, data, error? }` with HTTP 200 for business outcomes. Body codes: 200 ok, 401 invalid session (error `sessionInactive` after inactivity), 403 no permission (module missing), 404 not found, 500 internal, 501 login required, 601 business warning (see `error` for the id). Send `Authorization: Bearer <token>` from /auth/login and a `Language` header (en, cn, ja, vi).',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        },
        security: [{ bearer: [] }],
      },
    });
    app.get(`${API_BASE}/openapi.json`, { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
