import type { ServerModule } from '../../lib/server-module';
import apiKeyRoutes from './routes';

// LD2: the exhibitor's API keys for its own systems (the leads API's bearer credential).
const module: ServerModule = {
  name: 'api-keys',
  routes: apiKeyRoutes,
};

export default module;
