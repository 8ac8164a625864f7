import type { ServerModule } from '../../lib/server-module';
import approvalRoutes from './routes';

// The organiser's approvals of submitted forms (F5).
const module: ServerModule = {
  name: 'approvals',
  routes: approvalRoutes,
};

export default module;
