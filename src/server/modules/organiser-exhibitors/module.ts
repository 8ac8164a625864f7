import type { ServerModule } from '../../lib/server-module';
import organiserExhibitorRoutes from './routes';
import organiserImportRoutes from './import-routes';

// The organiser's exhibitors and their import.
const module: ServerModule = {
  name: 'organiser-exhibitors',
  routes: async (app) => {
    await app.register(organiserExhibitorRoutes);
    await app.register(organiserImportRoutes);
  },
};

export default module;
