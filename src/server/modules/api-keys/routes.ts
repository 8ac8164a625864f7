import { sql } from 'kysely';
import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { API_KEY_NAME_MAX, API_KEY_SCOPES, API_KEYS_MAX } from '../../../engine/api-keys';
import { AppError } from '../../lib/app-error';
import { envelope, NO_BODY } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { createApiKey } from '../../plugins/api-keys';
import { ok } from '../../plugins/errors';

// LD2: an exhibitor's API keys. The exhibitor names a key and picks its scopes; the key is shown
// once (only its hash is kept) and works until revoked. Keys are the participation's: any
// exhibitor account of it sees and revokes them. Creation and revocation are audited.

const TAGS = ['api-keys'];

const scopeSchema = {
  type: 'string',
  enum: [...API_KEY_SCOPES],
  description: "`leads:read`: the leads (`GET /oga/leads`, its incremental sync, a lead's detail); `exports:read`: the data download list and its files",
} as const;

const apiKeySchema = {
  type: 'object',
  required: ['id', 'name', 'prefix', 'scopes', 'createdAt', 'createdBy', 'lastUsedAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    prefix: { type: 'string', description: 'The first characters of the key, to recognise it' },
    scopes: { type: 'array', items: scopeSchema },
    createdAt: { type: 'string', format: 'date-time' },
    createdBy: { type: 'string', description: 'Who made the key' },
    lastUsedAt: { type: ['string', 'null'], format: 'date-time', description: 'Last request with the key (to the nearest minute); null = never used' },
  },
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;

export default async function apiKeyRoutes(app: ApiApp) {
  const base = `${API_BASE}/api-keys`;

  const participationOf = (auth: ReturnType<typeof requireAuth>) => {
    if (!auth.participation) throw new AppError('notFound');
    return auth.participation.id;
  };

  const activeKeys = (participationId: number) =>
    app.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.created_by')
      .where('api_keys.participation_id', '=', participationId)
      .where('api_keys.revoked_at', 'is', null);

  app.get(
    base,
    {
      config: { screen: 'apiKeys' },
      schema: {
        tags: TAGS,
        summary: "LD2: the exhibitor's API keys in use (never the keys themselves)",
        response: { 200: envelope({ type: 'array', items: apiKeySchema }) },
      },
    },
    async (request) => {
      const participationId = participationOf(requireAuth(request));
      const rows = await activeKeys(participationId)
        .select(['api_keys.id', 'api_keys.name', 'api_keys.prefix', 'api_keys.scopes', 'api_keys.created_at', 'api_keys.last_used_at', 'users.display_name'])
        .orderBy('api_keys.id', 'desc')
        .execute();
      return ok(
        rows.map((row) => ({
          id: row.id,
          name: row.name,
          prefix: row.prefix,
          scopes: API_KEY_SCOPES.filter((scope) => Array.isArray(row.scopes) && row.scopes.includes(scope)),
          createdAt: new Date(row.created_at).toISOString(),
          createdBy: row.display_name,
          lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
        })),
      );
    },
  );

  app.post(
    base,
    {
      config: { screen: 'apiKeys' },
      schema: {
        tags: TAGS,
        summary: 'LD2: a new API key with the scopes chosen (the key is shown only in this answer)',
        description:
          "Send the key as `Authorization: Bearer <key>` from your own systems. It opens only the routes of its scopes (others answer code 403 `apiKeyScope`) and only this exhibitor's data; it works until revoked (then code 401), or until the account that made it is deactivated.",
        body: {
          type: 'object',
          required: ['name', 'scopes'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', minLength: 1, maxLength: API_KEY_NAME_MAX, description: 'What the key is for, e.g. "CRM sync"' },
            scopes: { type: 'array', minItems: 1, maxItems: API_KEY_SCOPES.length, uniqueItems: true, items: scopeSchema },
          },
          examples: [{ name: 'CRM sync', scopes: ['leads:read'] }],
        },
        response: {
          200: envelope({
            type: 'object',
            required: ['id', 'name', 'prefix', 'scopes', 'key'],
            additionalProperties: false,
            properties: {
              id: { type: 'integer' },
              name: { type: 'string' },
              prefix: { type: 'string' },
              scopes: { type: 'array', items: scopeSchema },
              key: { type: 'string', description: 'The API key: shown only now' },
            },
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const participationId = participationOf(auth);
      const name = request.body.name.trim();
      if (!name) throw new AppError('required');
      const scopes = API_KEY_SCOPES.filter((scope) => request.body.scopes.includes(scope));
      const created = await app.db.transaction().execute(async (trx) => {
        const held = await trx
          .selectFrom('api_keys')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('participation_id', '=', participationId)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (held.n >= API_KEYS_MAX) throw new AppError('apiKeysTooMany', null, { limit: API_KEYS_MAX });
        const key = await createApiKey(trx, { participationId, userId: auth.user.id, name, scopes });
        await app.audit.record({ action: 'apiKey.create', subjectType: 'apiKey', subjectId: key.id, after: { name, scopes, prefix: key.prefix } }, { request, db: trx });
        return key;
      });
      return ok({ id: created.id, name, prefix: created.prefix, scopes, key: created.key });
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: { screen: 'apiKeys' },
      schema: {
        tags: TAGS,
        summary: 'LD2: revoke an API key: its next request answers code 401',
        description: "Another exhibitor's key answers code 404 like an unknown id.",
        params: idParams,
        body: NO_BODY,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const participationId = participationOf(auth);
      await app.db.transaction().execute(async (trx) => {
        const revoked = await trx
          .updateTable('api_keys')
          .set({ revoked_at: new Date(), revoked_by: auth.user.id })
          .where('id', '=', request.params.id)
          .where('participation_id', '=', participationId)
          .where('revoked_at', 'is', null)
          .returning(['id', 'name', 'prefix'])
          .executeTakeFirst();
        if (!revoked) throw new AppError('notFound');
        await app.audit.record(
          { action: 'apiKey.revoke', subjectType: 'apiKey', subjectId: revoked.id, before: { name: revoked.name, prefix: revoked.prefix } },
          { request, db: trx },
        );
      });
      return ok(null);
    },
  );
}
