import type { ServerModule } from '../../lib/server-module';
import eventRoutes from './routes';

// The event of the user's session (account info, branding).
const module: ServerModule = {
  name: 'events',
  routes: eventRoutes,
};

export default module;
