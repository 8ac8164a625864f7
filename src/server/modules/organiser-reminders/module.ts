import type { ServerModule } from '../../lib/server-module';
import { sendDueReminders } from './due';
import reminderRoutes from './routes';

/** How often the servers (one of them, claimed) look for reminders that have come due. */
const REMINDER_CHECK_MS = 15 * 60_000;

// Deadline reminders.
const module: ServerModule = {
  name: 'organiser-reminders',
  routes: reminderRoutes,
  jobs: () => [
    {
      name: 'reminders',
      everyMs: REMINDER_CHECK_MS,
      // Its own switch (the build's `reminders` option), not housekeeping's: reminders go out on a
      // server that runs no housekeeping, and one-off commands send none. At start as well, so
      // reminders that came due while no server ran go out now, not an interval later.
      switchedBy: 'reminders',
      atStart: true,
      // The forms in use at each run (they change live).
      run: (app) => sendDueReminders(app, { definitions: app.forms.registry.definitions, publicUrl: app.config.publicUrl }),
    },
  ],
};

export default module;
