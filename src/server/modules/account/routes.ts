import type { ApiApp } from '../../lib/api-app';
import { API_BASE } from '../../../engine/constants';
import { passwordChangeSchema } from '../../../engine/schemas/password-change';
import { passwordChangeProblems } from '../../../engine/password-policy';
import { AppError } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { envelope, okEnvelope } from '../../lib/schemas';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { revokeUserSessions } from '../../plugins/sessions';

const userInfoSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    account: { type: 'string', description: 'Account ID used to log in' },
    name: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string', enum: ['exhibitor', 'team_user', 'contractor', 'organiser'] },
    displayedModule: { type: 'array', items: { type: 'string' } },
    showLeftMenus: { type: 'boolean' },
    session: {
      type: 'object',
      properties: {
        idleSeconds: { type: 'integer' },
        warningSeconds: { type: 'integer' },
        expiresAt: { type: 'string', format: 'date-time', description: 'Absolute end of the session' },
      },
      required: ['idleSeconds', 'warningSeconds', 'expiresAt'],
    },
  },
  required: ['id', 'account', 'name', 'email', 'role', 'displayedModule', 'showLeftMenus', 'session'],
} as const;

export default async function userRoutes(app: ApiApp) {
  const config = app.config;
  const base = `${API_BASE}/user`;

  app.get(
    `${base}/info`,
    { schema: { tags: ['user'], summary: 'The logged-in user: modules, settings and session timing', response: { 200: envelope(userInfoSchema) } } },
    async (request) => {
      const { user, displayedModules, createdAt } = requireAuth(request);
      return ok({
        id: user.id,
        account: user.login,
        name: user.display_name,
        email: user.email,
        role: user.role,
        displayedModule: displayedModules,
        showLeftMenus: user.show_left_menus,
        session: {
          idleSeconds: config.session.idleSeconds,
          warningSeconds: config.session.warningSeconds,
          expiresAt: new Date(createdAt.getTime() + config.session.absoluteSeconds * 1000).toISOString(),
        },
      });
    },
  );

  app.put(
    `${base}/settings`,
    {
      schema: {
        tags: ['user'],
        summary: 'Save user settings (showLeftMenus)',
        body: { type: 'object', required: ['showLeftMenus'], properties: { showLeftMenus: { type: 'boolean' } }, additionalProperties: false },
        response: okEnvelope,
      },
    },
    async (request) => {
      const { user } = requireAuth(request);
      await app.db.updateTable('users').set({ show_left_menus: request.body.showLeftMenus }).where('id', '=', user.id).execute();
      return ok(null);
    },
  );

  app.put(
    `${base}/password`,
    {
      schema: {
        tags: ['user'],
        summary: 'Change the password (H3); other sessions of the account end',
        body: passwordChangeSchema,
        response: okEnvelope,
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const problems = passwordChangeProblems(request.body);
      const first = problems.oldPassword ?? problems.newPassword ?? problems.confirmPassword;
      if (first) throw new AppError(first, { fields: problems });
      if (!(await verifyPassword(auth.user.password_hash, request.body.oldPassword))) {
        throw new AppError('oldPasswordWrong', { fields: { oldPassword: 'oldPasswordWrong' } });
      }
      const now = new Date();
      const passwordHash = await hashPassword(request.body.newPassword);
      await app.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ password_hash: passwordHash, password_changed_at: now }).where('id', '=', auth.user.id).execute();
        await revokeUserSessions(trx, auth.user.id, { except: auth.sessionId, now });
      });
      return ok(null);
    },
  );
}
