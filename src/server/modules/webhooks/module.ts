import type { ServerModule } from '../../lib/server-module';
import webhooksRoutes from './routes';

// Webhooks to exhibitors' and organisers' own systems (LD; delivery in plugins/webhooks).
const module: ServerModule = {
  name: 'webhooks',
  routes: webhooksRoutes,
};

export default module;
