import type { ServerModule } from '../../lib/server-module';
import { fileJobs } from './jobs';

// The file store's housekeeping (jobs only).
const module: ServerModule = {
  name: 'files',
  routes: async () => {},
  jobs: fileJobs,
};

export default module;
