import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { ApiApp } from './api-app';

// The composition root's one shape for a server module: its routes, and the periodic jobs it
// hands to the scheduler. A module reads the configuration (app.config) and the services it uses
// (app.forms, app.formEntries, app.db …) from the app, never from options.

/** A job the scheduler runs every `everyMs`, once across the servers sharing the database. */
export interface PeriodicJob {
  name: string;
  everyMs: number;
  run: (app: FastifyInstance) => Promise<unknown>;
  /**
   * The switch that turns its timer on: 'housekeeping' (the default; off with
   * HOUSEKEEPING_SECONDS=0, tests run such jobs by hand) or 'reminders' (the build's `reminders`
   * option; off in one-off commands).
   */
  switchedBy?: JobSwitch;
  /** Also run (claimed once across servers) as soon as the server is ready, not only after an interval. */
  atStart?: boolean;
}

/** The switches that turn periodic jobs on, as the composition root sets them. */
export type JobSwitch = 'housekeeping' | 'reminders';

export interface ServerModule {
  /** The module's folder under src/server/modules. */
  name: string;
  /** Registers the module's route files. */
  routes: (app: ApiApp) => Promise<void>;
  /** Its periodic jobs, if any. */
  jobs?: (config: Config) => PeriodicJob[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's configuration (environment), as modules and plugins read it. */
    config: Config;
  }
}
