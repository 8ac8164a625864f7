import type { FastifyInstance } from 'fastify';
import type { PeriodicJob } from '../../lib/server-module';

// Puts periodic jobs — the file store's (jobs.ts) and the others app.ts hands over (visitors'
// privacy) — on the housekeeping scheduler (plugins/scheduler.ts), which runs each once per
// interval across every server sharing the database.

export default async function fileHousekeeping(app: FastifyInstance, { jobs }: { jobs: PeriodicJob[] }) {
  for (const job of jobs) {
    app.scheduler.every(job.name, Math.round(job.everyMs / 1000), async () => {
      const outcome = await job.run(app);
      app.log.info({ job: job.name, outcome }, 'housekeeping outcome');
    });
  }
}
