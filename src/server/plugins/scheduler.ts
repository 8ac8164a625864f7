import fp from 'fastify-plugin';

// Every periodic job (housekeeping purges, the reminders' due check), safe with several servers
// on one PostgreSQL: each job has a row in `scheduled_jobs`, and a run is claimed by one
// conditional UPDATE of its last run time, so exactly one server wins each interval and no lock
// is held while the job runs (PGlite has a single connection). A job that fails is logged and
// tried again at the next interval.

export interface JobOptions {
  /**
   * Whether this server runs the job on its timer; by default the plugin's `enabled` (the
   * housekeeping switch, HOUSEKEEPING_SECONDS > 0). A job with a switch of its own passes it.
   */
  onTimer?: boolean;
  /** Also try a run (claimed like any other) as soon as the server is ready, not only after a first check interval. */
  atStart?: boolean;
}

export interface Scheduler {
  /**
   * Runs `job` about every `intervalSeconds` on one of the servers sharing the database.
   * Register jobs before the app is ready; names are unique.
   */
  every(name: string, intervalSeconds: number, job: () => Promise<void>, options?: JobOptions): void;
  /** Runs a registered job now on this server, whatever its interval (tests, operators). */
  runNow(name: string): Promise<void>;
  /** Claims the job's current interval and runs it; false when another run (any server) has it. */
  runIfDue(name: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: Scheduler;
  }
}

interface Job {
  intervalSeconds: number;
  run: () => Promise<void>;
  onTimer: boolean;
  atStart: boolean;
}

/** How often a server checks whether a job is due; jobs with shorter intervals are checked at their interval. */
const CHECK_SECONDS = 60;

/** `enabled`: whether jobs run on timers unless they say otherwise (JobOptions.onTimer). */
export default fp<{ enabled: boolean }>(
  async (app, { enabled }) => {
    const jobs = new Map<string, Job>();
    const timers: NodeJS.Timeout[] = [];
    const running = new Set<Promise<void>>();

    async function claim(name: string, intervalSeconds: number): Promise<boolean> {
      const now = new Date();
      await app.db
        .insertInto('scheduled_jobs')
        .values({ name, last_run_at: new Date(0) })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const claimed = await app.db
        .updateTable('scheduled_jobs')
        .set({ last_run_at: now })
        .where('name', '=', name)
        .where('last_run_at', '<=', new Date(now.getTime() - intervalSeconds * 1000))
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) === 1;
    }

    async function execute(name: string, job: Job): Promise<void> {
      const started = Date.now();
      try {
        await job.run();
        app.log.info({ job: name, ms: Date.now() - started }, 'scheduled job done');
      } catch (error) {
        app.log.error({ err: error, job: name }, 'scheduled job failed');
      }
    }

    function track(work: Promise<void>) {
      running.add(work);
      void work.finally(() => running.delete(work));
    }

    function jobNamed(name: string): Job {
      const job = jobs.get(name);
      if (!job) throw new Error(`No scheduled job "${name}"`);
      return job;
    }

    const scheduler: Scheduler = {
      every(name, intervalSeconds, run, options = {}) {
        if (jobs.has(name)) throw new Error(`Scheduled job "${name}" is registered twice`);
        jobs.set(name, { intervalSeconds, run, onTimer: options.onTimer ?? enabled, atStart: options.atStart ?? false });
      },
      async runNow(name) {
        await execute(name, jobNamed(name));
      },
      async runIfDue(name) {
        const job = jobNamed(name);
        if (!(await claim(name, job.intervalSeconds))) return false;
        await execute(name, job);
        return true;
      },
    };
    app.decorate('scheduler', scheduler);

    app.addHook('onReady', async () => {
      for (const [name, job] of jobs) {
        if (!job.onTimer) continue;
        let busy = false;
        const tick = () => {
          if (busy) return;
          busy = true;
          const work = scheduler
            .runIfDue(name)
            .then(() => undefined)
            .catch((error: unknown) => app.log.error({ err: error, job: name }, 'scheduled job could not be claimed'))
            .finally(() => {
              busy = false;
            });
          track(work);
        };
        const timer = setInterval(tick, Math.min(job.intervalSeconds, CHECK_SECONDS) * 1000);
        timer.unref();
        timers.push(timer);
        // Not awaited: the server answers while the first run goes on (onClose waits for it).
        if (job.atStart) tick();
      }
    });

    app.addHook('onClose', async () => {
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    });
  },
  { name: 'scheduler', dependencies: ['database'] },
);
