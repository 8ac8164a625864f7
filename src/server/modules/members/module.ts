import type { ServerModule } from '../../lib/server-module';
import memberRoutes from './routes';

// Team users and contractors.
const module: ServerModule = {
  name: 'members',
  routes: memberRoutes,
};

export default module;
