import type { ServerModule } from '../../lib/server-module';
import reminderRoutes from './routes';

// Deadline reminders.
const module: ServerModule = {
  name: 'organiser-reminders',
  routes: reminderRoutes,
};

export default module;
