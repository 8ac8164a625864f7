import type { ServerModule } from '../../lib/server-module';
import accountRoutes from './routes';

// The user's own account and session.
const module: ServerModule = {
  name: 'account',
  routes: accountRoutes,
};

export default module;
