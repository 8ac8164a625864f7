import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { envelope, NO_BODY } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { createDeviceSession, revokeSession, type AuthContext } from '../../plugins/sessions';

// LD1: scanning devices. The scanning app signs in once, asks for a device token and forgets the
// password: the token is long-lived (no idle or age limit), opens only the scanning API, and ends
// when its user or the exhibitor revokes it, or when the user is deactivated. The exhibitor sees
// the devices of all its people; a team user sees its own.

const TAGS = ['leads'];
const ROLES = ['exhibitor', 'team_user'] as const;
export const DEVICE_NAME_MAX = 60;

const deviceSchema = {
  type: 'object',
  required: ['id', 'name', 'user', 'createdAt', 'lastUsedAt', 'current'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', description: 'What the user called the device, e.g. "Booth iPad 1"' },
    user: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] },
    createdAt: { type: 'string', format: 'date-time' },
    lastUsedAt: { type: 'string', format: 'date-time', description: 'Last request with this token (to the nearest few seconds)' },
    current: { type: 'boolean', description: 'The token of this very request' },
  },
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;

export default async function deviceRoutes(app: ApiApp) {
  const base = `${API_BASE}/leads/devices`;

  /** Active device tokens the caller may see: the participation's (exhibitor) or its own. */
  const visible = (auth: AuthContext) => {
    if (!auth.participation) throw new AppError('notFound');
    let query = app.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .where('sessions.device_name', 'is not', null)
      .where('sessions.revoked_at', 'is', null)
      .where('users.participation_id', '=', auth.participation.id);
    if (auth.user.role !== 'exhibitor') query = query.where('users.id', '=', auth.user.id);
    return query;
  };

  app.get(
    base,
    {
      config: { screen: 'leadDevices', roles: [...ROLES], device: true },
      schema: {
        tags: TAGS,
        summary: 'LD1: the scanning devices signed in with a device token (exhibitor: all of its people; team user: its own)',
        response: { 200: envelope({ type: 'array', items: deviceSchema }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await visible(auth)
        .select(['sessions.id', 'sessions.device_name', 'sessions.created_at', 'sessions.last_seen_at', 'users.id as user_id', 'users.display_name'])
        .orderBy('sessions.last_seen_at', 'desc')
        .orderBy('sessions.id', 'desc')
        .execute();
      return ok(
        rows.map((row) => ({
          id: row.id,
          name: row.device_name ?? '',
          user: { id: row.user_id, name: row.display_name },
          createdAt: new Date(row.created_at).toISOString(),
          lastUsedAt: new Date(row.last_seen_at).toISOString(),
          current: row.id === auth.sessionId,
        })),
      );
    },
  );

  app.post(
    base,
    {
      config: { screen: 'leadDevices', roles: [...ROLES] },
      schema: {
        tags: TAGS,
        summary: 'LD1: a long-lived device token for the scanning app (shown once)',
        description:
          'Call it once after `POST /oga/auth/login` (a signed-in session, not a device token), keep `token` on the device and send `Authorization: Bearer <token>` with every scan; then forget the password. The token does not expire with idleness or age and opens only the scanning API (`/oga/leads/scan`, `/oga/leads/scans`, `/oga/leads/options`, `PATCH /oga/leads/{id}` to qualify a lead it may see, this list); anything else answers code 403 `deviceTokenScope`. It ends when revoked (`DELETE /oga/leads/devices/{id}`, by its user or the exhibitor, also on the Devices page) or when its user is deactivated: then requests answer code 401 and the app signs in again.',
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1, maxLength: DEVICE_NAME_MAX, description: 'A name the exhibitor will recognise, e.g. "Booth iPad 1"' } },
          examples: [{ name: 'Booth iPad 1' }],
        },
        response: {
          200: envelope({
            type: 'object',
            required: ['id', 'name', 'token'],
            properties: { id: { type: 'integer' }, name: { type: 'string' }, token: { type: 'string', description: 'The device token: shown only now' } },
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      if (!auth.participation) throw new AppError('notFound');
      const name = request.body.name.trim();
      if (!name) throw new AppError('badRequest');
      const { id, token } = await createDeviceSession(app.db, auth.user.id, name, request.ip);
      return ok({ id, name, token });
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: { screen: 'leadDevices', roles: [...ROLES], device: true },
      schema: {
        tags: TAGS,
        summary: "LD1: revoke a device token (the exhibitor: any of its people's; a team user: its own; a device: itself)",
        description: "The device's next request answers code 401. Another participation's device answers code 404 like an unknown id.",
        params: idParams,
        body: NO_BODY,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await visible(auth).select(['sessions.id']).where('sessions.id', '=', request.params.id).executeTakeFirst();
      // A device token may end itself only (an app's "sign out"), not its colleagues'.
      if (!row || (auth.device && row.id !== auth.sessionId)) throw new AppError('notFound');
      await revokeSession(app.db, row.id);
      return ok(null);
    },
  );
}
