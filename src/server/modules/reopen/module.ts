import type { ServerModule } from '../../lib/server-module';
import reopenRoutes from './routes';

// Reopening a submit-once form for an exhibitor.
const module: ServerModule = {
  name: 'reopen',
  routes: reopenRoutes,
};

export default module;
