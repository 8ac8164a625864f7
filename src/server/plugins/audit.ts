import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

// O2: the audit log — every organiser change, import, reopening, reminder and approval
// decision, and every exhibitor login and submission: who, when, what (before and after).
// Records are written in the caller's transaction when it passes one, so a change and its
// record are stored together or not at all.

export interface AuditEntry {
  /** What happened, as a dotted id: 'event.update', 'exhibitor.import', 'form.submit', 'auth.login'… */
  action: string;
  subjectType?: string;
  subjectId?: string | number;
  before?: unknown;
  after?: unknown;
  /** Default: the signed-in user's event / participation / organisation. */
  eventId?: number | null;
  participationId?: number | null;
  organisationId?: number | null;
  /** Default: the signed-in user of the request. */
  actor?: { id: number | null; name: string; role: string } | null;
}

export interface Audit {
  record(entry: AuditEntry, context?: { request?: FastifyRequest; db?: Kysely<Database> }): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    audit: Audit;
  }
}

export default fp(
  async (app) => {
    const audit: Audit = {
      async record(entry, context = {}) {
        const auth = context.request?.auth ?? null;
        const actor = entry.actor !== undefined ? entry.actor : auth ? { id: auth.user.id, name: auth.user.display_name, role: auth.user.role } : null;
        const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
        await (context.db ?? app.db)
          .insertInto('audit_log')
          .values({
            action: entry.action,
            subject_type: entry.subjectType ?? '',
            subject_id: entry.subjectId === undefined ? '' : String(entry.subjectId),
            before: json(entry.before),
            after: json(entry.after),
            event_id: entry.eventId !== undefined ? entry.eventId : (auth?.event?.id ?? null),
            participation_id: entry.participationId !== undefined ? entry.participationId : (auth?.participation?.id ?? null),
            organisation_id: entry.organisationId !== undefined ? entry.organisationId : (auth?.user.organisation_id ?? auth?.event?.organisation_id ?? null),
            actor_user_id: actor?.id ?? null,
            actor_name: actor?.name ?? '',
            actor_role: actor?.role ?? '',
            ip: context.request?.ip ?? '',
          })
          .execute();
      },
    };
    app.decorate('audit', audit);
  },
  { name: 'audit', dependencies: ['database'] },
);
