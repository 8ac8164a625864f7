import type { ServerModule } from '../../lib/server-module';
import formGalleryRoutes from './gallery-routes';

// The organiser's gallery of the forms in use.
const module: ServerModule = {
  name: 'organiser-forms',
  routes: formGalleryRoutes,
};

export default module;
