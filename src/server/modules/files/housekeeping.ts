import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { privacyJobs } from '../privacy/jobs';
import { fileJobs } from './jobs';

// Puts the periodic jobs of the file store (jobs.ts) and of visitors' privacy (privacy/jobs.ts)
// on the housekeeping scheduler (plugins/scheduler.ts), which runs each once per interval across
// every server sharing the database.

export default async function fileHousekeeping(app: FastifyInstance, { config }: { config: Config }) {
  for (const job of [...fileJobs(config), ...privacyJobs(config)]) {
    app.scheduler.every(job.name, Math.round(job.everyMs / 1000), async () => {
      const outcome = await job.run(app);
      app.log.info({ job: job.name, outcome }, 'housekeeping outcome');
    });
  }
}
