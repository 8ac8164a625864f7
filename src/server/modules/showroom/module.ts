import type { ServerModule } from '../../lib/server-module';
import showroomRoutes from './routes';

// The digital showroom and its poster.
const module: ServerModule = {
  name: 'showroom',
  routes: showroomRoutes,
};

export default module;
