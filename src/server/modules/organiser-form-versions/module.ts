import type { ServerModule } from '../../lib/server-module';
import formEditorRoutes from './editor-routes';
import formVersionRoutes from './version-routes';

// F11: the organiser's form editor (an event's patch of a form, drafts, impact, publishing) and
// the versions of the form set (list, difference, rollback).
const module: ServerModule = {
  name: 'organiser-form-versions',
  async routes(app) {
    await formEditorRoutes(app);
    await formVersionRoutes(app);
  },
};

export default module;
