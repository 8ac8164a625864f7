import type { ServerModule } from '../../lib/server-module';
import formSetRoutes from './form-set-routes';
import formEntryRoutes from './entry-routes';
import formRoutes from './form-routes';
import listImportRoutes from './list-import-routes';

// The participation forms (F1-F10): the set in use, the forms and their list imports.
const module: ServerModule = {
  name: 'forms',
  routes: async (app) => {
    await app.register(formSetRoutes);
    await app.register(formRoutes);
    await app.register(formEntryRoutes);
    await app.register(listImportRoutes);
  },
};

export default module;
