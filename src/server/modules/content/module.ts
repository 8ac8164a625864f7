import type { ServerModule } from '../../lib/server-module';
import contentRoutes from './routes';

// Manuals, announcements, support, search and attachments.
const module: ServerModule = {
  name: 'content',
  routes: contentRoutes,
};

export default module;
