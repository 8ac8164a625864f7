import type { ServerModule } from '../../lib/server-module';
import submissionRoutes from './routes';

// Submissions per form and their export.
const module: ServerModule = {
  name: 'organiser-submissions',
  routes: submissionRoutes,
};

export default module;
