import type { ServerModule } from '../../lib/server-module';
import progressRoutes from './routes';

// The exhibitors' progress matrix.
const module: ServerModule = {
  name: 'organiser-progress',
  routes: progressRoutes,
};

export default module;
