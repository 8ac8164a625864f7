import type { ServerModule } from '../../lib/server-module';
import documentRoutes from './routes';

// Documents made from submissions.
const module: ServerModule = {
  name: 'documents',
  routes: documentRoutes,
};

export default module;
