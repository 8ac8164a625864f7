import { purgeAuthLeftovers } from './housekeeping';
import type { ServerModule } from '../../lib/server-module';
import authRoutes from './routes';
import linkCodeRoutes from './link-codes';
import { AUTH_PURGE_JOB } from './routes';

// Sign-in, sessions, password resets and link codes (A1-A3).
const module: ServerModule = {
  name: 'auth',
  routes: async (app) => {
    await app.register(authRoutes);
    await app.register(linkCodeRoutes);
  },
  jobs: (config) => [
    // Expired sessions, login failures, reset links and link codes.
    { name: AUTH_PURGE_JOB, everyMs: (config.housekeepingSeconds || 15 * 60) * 1000, run: (app) => purgeAuthLeftovers(app.db, config) },
  ],
};

export default module;
