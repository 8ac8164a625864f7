import type { ServerModule } from '../../lib/server-module';
import organiserEventRoutes from './routes';
import eventLogoRoutes from './logo-routes';

// The organiser's events and their logos.
const module: ServerModule = {
  name: 'organiser-events',
  routes: async (app) => {
    await app.register(organiserEventRoutes);
    await app.register(eventLogoRoutes);
  },
};

export default module;
