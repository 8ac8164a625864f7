import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { privacyJobs } from '../privacy/jobs';
import { claimRun, fileJobs } from './jobs';

// Runs the periodic jobs of the file store (jobs.ts) and of visitors' privacy (privacy/jobs.ts) on timers that never keep the process alive.
// Each run is claimed in the database first, so several instances run a job once per period.
// Off in tests and one-off commands (housekeeping: false): they call the jobs directly.

export default async function fileHousekeeping(app: FastifyInstance, { config, enabled }: { config: Config; enabled: boolean }) {
  if (!enabled) return;
  const timers: NodeJS.Timeout[] = [];
  let running = false;
  for (const job of [...fileJobs(config), ...privacyJobs(config)]) {
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        if (await claimRun(app, job.name, job.everyMs)) {
          const outcome = await job.run(app);
          app.log.info({ job: job.name, outcome }, 'housekeeping job done');
        }
      } catch (error) {
        app.log.error({ job: job.name, err: error }, 'housekeeping job failed');
      } finally {
        running = false;
      }
    };
    // Checked every few minutes; the claim decides whether the period has passed.
    const timer = setInterval(() => void tick(), Math.min(job.everyMs, 5 * 60 * 1000));
    timer.unref();
    // A first run a minute after start (a server restarted often still gets its sweeps).
    const first = setTimeout(() => void tick(), 60_000);
    first.unref();
    timers.push(timer, first);
  }
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
  });
}
