import type { ServerModule } from '../../lib/server-module';
import healthRoutes from './routes';

// Liveness and readiness.
const module: ServerModule = {
  name: 'health',
  routes: healthRoutes,
};

export default module;
