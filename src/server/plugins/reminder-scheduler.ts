import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Issue 9: runs a periodic task (the reminders' due check) on every instance; the task itself is
// safe to run twice (the mail queue's dedupe keys), so no instance has to be the only one. A
// plain `(app) => Promise<void>` so it moves onto the general scheduler when there is one.

export interface PeriodicTaskOptions {
  name: string;
  everyMs: number;
  task: (app: FastifyInstance) => Promise<unknown>;
}

export default fp<PeriodicTaskOptions>(
  async (app, { name, everyMs, task }) => {
    let running: Promise<unknown> | null = null;
    let closed = false;
    const run = () => {
      if (closed || running) return;
      running = task(app)
        // One line per run: an operator (and the multi-instance test) sees each instance's run end.
        .then((result) => app.log.info({ task: name, result }, 'periodic task done'))
        .catch((error: unknown) => app.log.error({ err: error, task: name }, 'periodic task failed'))
        .finally(() => {
          running = null;
        });
    };
    const timer = setInterval(run, everyMs);
    timer.unref();
    app.addHook('onReady', async () => run());
    app.addHook('onClose', async () => {
      closed = true;
      clearInterval(timer);
      await running;
    });
  },
  { name: 'reminder-scheduler', dependencies: ['database'] },
);
