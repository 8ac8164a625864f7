import type { ServerModule } from '../../lib/server-module';
import privacyRoutes from './routes';
import { privacyJobs } from './jobs';

// Visitors' privacy: retention, erasure.
const module: ServerModule = {
  name: 'organiser-privacy',
  routes: privacyRoutes,
  jobs: privacyJobs,
};

export default module;
