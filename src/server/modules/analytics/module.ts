import type { ServerModule } from '../../lib/server-module';
import analyticsRoutes from './routes';

// Lead analytics and custom tags (LA1-LA5, LD6).
const module: ServerModule = {
  name: 'analytics',
  routes: analyticsRoutes,
};

export default module;
