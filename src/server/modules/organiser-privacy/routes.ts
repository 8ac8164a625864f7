import type { ApiApp } from '../../lib/api-app';
import type { FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { API_BASE } from '../../../engine/constants';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import { eraseLeads, organiserEvents, visitorBody, visitorLeads, visitorOf as visitorOfBody } from './erase';
import consentRoutes, { recipientsOf } from './consent-routes';
import { leadsEraseAt as eraseAtOf } from '../../../engine/retention';
import { leadConsent } from '../../../engine/lead-consent';

// Privacy of visitors' data (organiser only): how long exhibitors keep leads after the
// show, and one visitor's data across every exhibitor of the organiser's events, exported or
// erased on request. Every erasure is in the audit log, with counts, never the erased data.

const SCREEN = 'organiserPrivacy' as const;
const TAGS = ['privacy'];

const settingsSchema = {
  type: 'object',
  properties: {
    event: { type: 'string' },
    retentionDays: { type: ['integer', 'null'], description: 'Days exhibitors keep leads after the show ends; null = not set (kept)' },
    showEndsAt: { type: 'string' },
    eraseAt: { type: ['string', 'null'], description: 'When the leads are erased' },
    remindedAt: { type: ['string', 'null'] },
    erasedAt: { type: ['string', 'null'] },
  },
  required: ['event', 'retentionDays', 'showEndsAt', 'eraseAt', 'remindedAt', 'erasedAt'],
} as const;

const leadRecord = {
  type: 'object',
  additionalProperties: true,
  properties: {
    exhibitor: { type: 'string' },
    event: { type: 'integer' },
    visitorName: { type: 'string' },
    company: { type: 'string' },
    email: { type: 'string' },
    badgeCode: { type: 'string' },
    scannedAt: { type: 'string' },
  },
} as const;

// LD2: who received the visitor's data and when: exhibitors' lead exports that held the
// visitor's leads (who made each, when), older exports that may have held them (made before
// exports recorded their leads) and the webhook messages about them (receiver, when).
const exportRecipient = {
  type: 'object',
  properties: { exhibitor: { type: 'string' }, madeBy: { type: 'string' }, fileName: { type: 'string' }, at: { type: 'string', format: 'date-time' } },
  required: ['exhibitor', 'madeBy', 'fileName', 'at'],
} as const;
const recipientsSchema = {
  type: 'object',
  properties: {
    exports: { type: 'array', items: exportRecipient },
    unrecordedExports: {
      type: 'array',
      items: exportRecipient,
      description: "Exports of the visitor's exhibitors made after the lead's first scan but before exports recorded which leads they hold: they may hold the visitor",
    },
    deliveries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          exhibitor: { type: 'string' },
          url: { type: 'string' },
          eventType: { type: 'string' },
          status: { type: 'string', enum: ['pending', 'sending', 'delivered', 'failed'] },
          queuedAt: { type: 'string', format: 'date-time' },
          deliveredAt: { type: ['string', 'null'], format: 'date-time' },
        },
        required: ['exhibitor', 'url', 'eventType', 'status', 'queuedAt', 'deliveredAt'],
      },
    },
  },
  required: ['exports', 'unrecordedExports', 'deliveries'],
} as const;

const countsSchema = {
  type: 'object',
  properties: {
    leads: { type: 'integer' },
    businessCards: { type: 'integer' },
    exports: { type: 'integer' },
    participations: { type: 'integer' },
    visitorProfiles: { type: 'integer' },
  },
  required: ['leads', 'businessCards', 'exports', 'participations', 'visitorProfiles'],
} as const;

type VisitorBody = FromSchema<typeof visitorBody>;
/** The visitor asked for, trimmed: a blank value names no one. */
type Visitor = Partial<VisitorBody>;

export default async function privacyRoutes(app: ApiApp) {
  const base = `${API_BASE}/organiser/privacy`;

  const eventsOf = (auth: AuthContext) => organiserEvents(app, auth);

  async function settings(eventId: number) {
    const event = await app.db
      .selectFrom('events')
      .select(['name', 'ends_at', 'lead_retention_days', 'lead_retention_reminded_at', 'leads_erased_at'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);
    return {
      event: event.name,
      retentionDays: event.lead_retention_days,
      showEndsAt: new Date(event.ends_at).toISOString(),
      eraseAt: iso(eraseAtOf(event)),
      remindedAt: iso(event.lead_retention_reminded_at),
      erasedAt: iso(event.leads_erased_at),
    };
  }

  const organiserOnly = { screen: SCREEN };

  app.get(
    base,
    {
      config: organiserOnly,
      schema: { tags: TAGS, summary: 'How long exhibitors keep leads after the show, and when they are erased', response: { 200: envelope(settingsSchema) } },
    },
    async (request) => ok(await settings(eventOf(requireAuth(request)).id)),
  );

  app.put(
    base,
    {
      config: organiserOnly,
      schema: {
        tags: TAGS,
        summary:
          'Set how long exhibitors keep leads after the show (days, 1-3650; null = not set). Exhibitors are reminded a week before the leads, their business cards and exports are erased.',
        body: { type: 'object', required: ['retentionDays'], additionalProperties: false, properties: { retentionDays: { type: ['integer', 'null'], minimum: 1, maximum: 3650 } } },
        response: { 200: envelope(settingsSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const before = await settings(event.id);
      if (before.erasedAt) throw new AppError('leadsAlreadyErased');
      // A new period means a new reminder.
      await app.db.updateTable('events').set({ lead_retention_days: request.body.retentionDays, lead_retention_reminded_at: null }).where('id', '=', event.id).execute();
      const after = await settings(event.id);
      await app.audit.record(
        {
          action: 'privacy.retention.update',
          subjectType: 'event',
          subjectId: event.id,
          before: { retentionDays: before.retentionDays },
          after: { retentionDays: after.retentionDays },
        },
        { request },
      );
      return ok(after);
    },
  );

  const visitorOf = (request: FastifyRequest<{ Body: VisitorBody }>): Visitor => visitorOfBody(request.body);

  app.post(
    `${base}/visitor/export`,
    {
      config: organiserOnly,
      schema: {
        tags: TAGS,
        summary: "One visitor's data held by every exhibitor of the organiser's events (a subject access request), as JSON",
        body: visitorBody,
        response: {
          200: envelope({
            type: 'object',
            properties: { leads: { type: 'array', items: leadRecord }, visitorProfiles: { type: 'integer' }, recipients: recipientsSchema },
            required: ['leads', 'visitorProfiles', 'recipients'],
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const who = visitorOf(request);
      const events = await eventsOf(auth);
      const leads = await visitorLeads(app, events, who);
      const profiles = await countProfiles(events, who);
      await app.audit.record({ action: 'privacy.visitor.export', subjectType: 'visitor', subjectId: '', after: { leads: leads.length, visitorProfiles: profiles } }, { request });
      return ok({
        leads: leads.map((lead) => ({
          exhibitor: lead.exhibitor,
          event: lead.event_id,
          badgeCode: lead.badge_code,
          visitorName: lead.visitor_name,
          salutation: lead.salutation,
          company: lead.company,
          jobTitle: lead.job_title,
          country: lead.country,
          email: lead.email,
          mobile: lead.mobile,
          phone: lead.phone,
          address: lead.address,
          notes: lead.notes,
          scannedAt: new Date(lead.scanned_at).toISOString(),
          hasBusinessCard: lead.business_card !== null,
          consent: leadConsent(lead.consent_source, lead.consent_withdrawn_at),
        })),
        visitorProfiles: profiles,
        recipients: await recipientsOf(app, leads),
      });
    },
  );

  async function countProfiles(events: number[], who: Visitor): Promise<number> {
    if (events.length === 0) return 0;
    const row = await profiles(events, who)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  const profiles = (events: number[], who: Visitor) =>
    app.db
      .selectFrom('visitors')
      .where('event_id', 'in', events)
      .where((eb) =>
        eb.or([...(who.badgeCode ? [eb('badge_code', '=', who.badgeCode)] : []), ...(who.email ? [eb(eb.fn('lower', ['email']), '=', who.email.toLowerCase())] : [])]),
      );

  app.post(
    `${base}/visitor/erase`,
    {
      config: organiserOnly,
      schema: {
        tags: TAGS,
        summary:
          "Erase one visitor's data across every exhibitor of the organiser's events: the leads, their business cards, the exhibitors' lead exports that hold them, and the visitor's registration profile. Recorded in the audit log (counts only).",
        body: visitorBody,
        response: { 200: envelope(countsSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const who = visitorOf(request);
      const events = await eventsOf(auth);
      const leads = await visitorLeads(app, events, who);
      const participations = [...new Set(leads.map((lead) => lead.participation_id))];
      const counts = await eraseLeads(
        app,
        leads.map((lead) => Number(lead.id)),
        participations,
      );
      // The registration profile goes too; leads of later scans then keep only the badge code.
      let visitorProfiles = 0;
      if (events.length > 0) {
        const ids = (await profiles(events, who).select('id').execute()).map((row) => row.id);
        if (ids.length > 0) {
          await app.db.updateTable('leads').set({ visitor_id: null }).where('visitor_id', 'in', ids).execute();
          visitorProfiles = Number((await app.db.deleteFrom('visitors').where('id', 'in', ids).executeTakeFirst()).numDeletedRows);
        }
      }
      const answer = { ...counts, visitorProfiles };
      await app.audit.record({ action: 'privacy.visitor.erase', subjectType: 'visitor', subjectId: '', after: answer }, { request });
      return ok(answer);
    },
  );

  await consentRoutes(app);
}
