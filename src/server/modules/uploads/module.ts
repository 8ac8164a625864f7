import type { ServerModule } from '../../lib/server-module';
import uploadRoutes from './routes';

// File uploads.
const module: ServerModule = {
  name: 'uploads',
  routes: uploadRoutes,
};

export default module;
