import type { ApiApp } from '../../lib/api-app';
import dashboardRoutes from './dashboard';
import invitationRoutes from './invitations';
import customTagRoutes from './tags';

// Lead analytics (LA1-LA5) and custom tags (LD6): the dashboard with its download list, the
// exhibitor's custom tags, and e-mail invitations to clients. Every route works on the
// caller's own participation only (P5).
export default async function analyticsRoutes(app: ApiApp) {
  await app.register(dashboardRoutes);
  await app.register(customTagRoutes);
  await app.register(invitationRoutes);
}
