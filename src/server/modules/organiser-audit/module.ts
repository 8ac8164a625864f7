import type { ServerModule } from '../../lib/server-module';
import auditRoutes from './routes';

// The audit log.
const module: ServerModule = {
  name: 'organiser-audit',
  routes: auditRoutes,
};

export default module;
