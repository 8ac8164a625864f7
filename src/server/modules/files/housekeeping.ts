import type { FastifyInstance } from 'fastify';
import type { JobSwitch, PeriodicJob } from '../../lib/server-module';

// Puts every module's periodic jobs — the file store's (jobs.ts) and the others app.ts hands over
// (auth purges, visitors' privacy, the reminders' due check) — on the one scheduler
// (plugins/scheduler.ts), which runs each once per interval across every server sharing the
// database. Each job's timer follows its switch (PeriodicJob.switchedBy).

export default async function fileHousekeeping(app: FastifyInstance, { jobs, switches }: { jobs: PeriodicJob[]; switches: Record<JobSwitch, boolean> }) {
  for (const job of jobs) {
    const onTimer = switches[job.switchedBy ?? 'housekeeping'];
    app.scheduler.every(
      job.name,
      Math.round(job.everyMs / 1000),
      async () => {
        const outcome = await job.run(app);
        app.log.info({ job: job.name, outcome }, 'housekeeping outcome');
      },
      { onTimer, atStart: job.atStart },
    );
  }
}
