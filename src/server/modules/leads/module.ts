import type { ServerModule } from '../../lib/server-module';
import leadsRoutes from './routes';

// Lead capture (LD1-LD4).
const module: ServerModule = {
  name: 'leads',
  routes: leadsRoutes,
};

export default module;
