import type { ApiApp } from '../../lib/api-app';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { API_BASE } from '../../../engine/constants';
import { CONSENT_BASES, CONSENT_TEXT_MAX } from '../../../engine/lead-consent';
import { LANGUAGES } from '../../../engine/language';
import { leadSearchText } from '../../../engine/leads';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { organiserEvents, visitorBody, visitorLeads, visitorOf } from './erase';

// LD2: consent kept with every lead (organiser only). Per event, the consent text visitors agreed
// to at registration and the legal basis; and a visitor's withdrawal, which reaches every
// exhibitor's leads of that visitor in the organiser's events: the visitor's registration row is
// marked withdrawn (a later scan by any exhibitor copies none of its fields), the leads are marked
// withdrawn and their visitor fields emptied in the stored lead (lists, details, exports, the leads API and
// webhook payloads then carry none), and each exhibitor's webhook receivers get `lead.updated`
// with the withdrawal, queued in the same transaction. The badge code, the exhibitor's own
// qualification and notes stay, so the exhibitor still sees that the visitor withdrew.

const SCREEN = 'organiserPrivacy' as const;
const TAGS = ['privacy'];

const consentSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    texts: {
      type: 'object',
      additionalProperties: false,
      description: 'The consent text visitors agreed to at registration, per language code (en, cn, ja, vi); a language left out has none',
      properties: Object.fromEntries(LANGUAGES.map((language) => [language, { type: 'string', maxLength: CONSENT_TEXT_MAX }])) as Record<
        (typeof LANGUAGES)[number],
        { type: 'string'; maxLength: typeof CONSENT_TEXT_MAX }
      >,
    },
    basis: { type: ['string', 'null'], enum: [...CONSENT_BASES, null], description: 'Legal basis code (label at privacy.consent.basis.<code>); null = not set' },
  },
  required: ['texts', 'basis'],
} as const;

/** The visitor fields a withdrawal empties (the ones copied from the visitor's registration). */
const VISITOR_COLUMNS = ['visitor_name', 'salutation', 'company', 'business_nature', 'job_title', 'country', 'mobile', 'email', 'phone', 'address'] as const;

/** Marks the leads withdrawn and empties their visitor fields; their exhibitors' webhooks hear of it in the same transaction. */
export async function withdrawLeads(app: FastifyInstance, leads: Array<{ id: number | string; badge_code: string }>, at: Date): Promise<number> {
  if (leads.length === 0) return 0;
  const emptied = Object.fromEntries(VISITOR_COLUMNS.map((column) => [column, '']));
  await app.db.transaction().execute(async (trx) => {
    for (const lead of leads)
      await trx
        .updateTable('leads')
        .set({ ...emptied, consent_withdrawn_at: at, search_folded: leadSearchText({ visitorName: '', company: '', email: '', badgeCode: lead.badge_code }), updated_at: at })
        .where('id', '=', Number(lead.id))
        .execute();
    await app.webhooks.emit({ type: 'lead.updated', leadIds: leads.map((lead) => Number(lead.id)) }, trx);
  });
  return leads.length;
}

/**
 * Marks the visitor's registration rows in the organiser's events (by badge code, e-mail, and the
 * badges of the visitor's leads) as withdrawn, so a later scan by any exhibitor copies none of the
 * visitor's fields. A row marked before keeps its first withdrawal time.
 */
async function markVisitorsWithdrawn(
  app: FastifyInstance,
  eventIds: number[],
  who: { badgeCode?: string; email?: string },
  leads: Array<{ badge_code: string; event_id: number }>,
  at: Date,
) {
  if (eventIds.length === 0) return;
  const leadBadges = [...new Map(leads.map((lead) => [`${lead.event_id}:${lead.badge_code}`, lead])).values()];
  await app.db
    .updateTable('visitors')
    .set({ consent_withdrawn_at: at })
    .where('event_id', 'in', eventIds)
    .where('consent_withdrawn_at', 'is', null)
    .where((eb) =>
      eb.or([
        ...(who.badgeCode ? [eb('badge_code', '=', who.badgeCode)] : []),
        ...(who.email ? [eb(sql`lower(email)`, '=', who.email.toLowerCase())] : []),
        ...leadBadges.map((lead) => eb.and([eb('event_id', '=', lead.event_id), eb('badge_code', '=', lead.badge_code)])),
      ]),
    )
    .execute();
}

export default async function consentRoutes(app: ApiApp) {
  const base = `${API_BASE}/organiser/privacy`;
  const organiserOnly = { screen: SCREEN };

  async function consentOf(eventId: number) {
    const row = await app.db.selectFrom('events').select(['consent_texts', 'consent_basis']).where('id', '=', eventId).executeTakeFirstOrThrow();
    const stored = (row.consent_texts ?? {}) as Record<string, unknown>;
    const texts = Object.fromEntries(LANGUAGES.flatMap((language) => (typeof stored[language] === 'string' && stored[language] ? [[language, stored[language]]] : [])));
    return { texts, basis: (CONSENT_BASES as readonly string[]).includes(row.consent_basis ?? '') ? (row.consent_basis as (typeof CONSENT_BASES)[number]) : null };
  }

  app.get(
    `${base}/consent`,
    { config: organiserOnly, schema: { tags: TAGS, summary: "LD2: the event's consent text (per language) and legal basis", response: { 200: envelope(consentSchema) } } },
    async (request) => ok(await consentOf(eventOf(requireAuth(request)).id)),
  );

  app.put(
    `${base}/consent`,
    {
      config: organiserOnly,
      schema: {
        tags: TAGS,
        summary: 'LD2: set the consent text visitors agreed to at registration (per language) and the legal basis; recorded in the audit log',
        body: consentSchema,
        response: { 200: envelope(consentSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const event = eventOf(auth);
      const before = await consentOf(event.id);
      const texts = Object.fromEntries(Object.entries(request.body.texts).flatMap(([language, text]) => (text?.trim() ? [[language, text.trim()]] : [])));
      await app.db
        .updateTable('events')
        .set({ consent_texts: JSON.stringify(texts), consent_basis: request.body.basis })
        .where('id', '=', event.id)
        .execute();
      const after = await consentOf(event.id);
      await app.audit.record({ action: 'privacy.consent.update', subjectType: 'event', subjectId: event.id, before, after }, { request });
      return ok(after);
    },
  );

  app.post(
    `${base}/visitor/withdraw`,
    {
      config: organiserOnly,
      schema: {
        tags: TAGS,
        summary:
          "LD2: a visitor withdraws consent: the visitor's registration is marked withdrawn (later scans by any exhibitor carry no visitor field) and every exhibitor's leads of the visitor in the organiser's events are marked withdrawn and their visitor fields emptied (the badge code and the exhibitor's qualification stay); the exhibitors' webhook receivers get lead.updated. Recorded in the audit log (counts only).",
        body: visitorBody,
        response: { 200: envelope({ type: 'object', properties: { leads: { type: 'integer' } }, required: ['leads'] }) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const events = await organiserEvents(app, auth);
      const who = visitorOf(request.body);
      const found = await visitorLeads(app, events, who);
      const at = new Date();
      await markVisitorsWithdrawn(app, events, who, found, at);
      const answer = {
        leads: await withdrawLeads(
          app,
          found.filter((lead) => lead.consent_withdrawn_at === null),
          at,
        ),
      };
      await app.audit.record({ action: 'privacy.visitor.withdraw', subjectType: 'visitor', subjectId: '', after: answer }, { request });
      return ok(answer);
    },
  );
}

/**
 * LD2: who received a visitor's leads and when: the exports that held them and the webhook
 * messages about them. Exports made before exports recorded their leads cannot be told apart: the
 * ones of the lead's exhibitor made after the lead's first scan may hold it, and are answered
 * apart as such (`unrecordedExports`), so the organiser is told instead of seeing none.
 */
export async function recipientsOf(app: FastifyInstance, leads: Array<{ id: number | string; participation_id: number; exhibitor: string; scanned_at: Date | string }>) {
  if (leads.length === 0) return { exports: [], unrecordedExports: [], deliveries: [] };
  const exhibitorOf = new Map(leads.map((lead) => [Number(lead.id), lead.exhibitor]));
  /** The lead's exhibitor's exports that `which` selects, as the subject access answer lists them. */
  const exportsOfLead = async (lead: (typeof leads)[number], which: 'recorded' | 'unrecorded') => {
    let query = app.db
      .selectFrom('lead_exports')
      .leftJoin('users', 'users.id', 'lead_exports.user_id')
      .select(['lead_exports.file_name', 'lead_exports.created_at', 'users.display_name'])
      .where('lead_exports.participation_id', '=', lead.participation_id);
    query =
      which === 'recorded'
        ? query.where(sql<boolean>`lead_exports.lead_ids @> ${JSON.stringify([Number(lead.id)])}::jsonb`)
        : query.where('lead_exports.lead_ids', 'is', null).where('lead_exports.created_at', '>=', new Date(lead.scanned_at));
    const rows = await query.orderBy('lead_exports.id').execute();
    return rows.map((row) => ({ exhibitor: lead.exhibitor, madeBy: row.display_name ?? '', fileName: row.file_name, at: new Date(row.created_at).toISOString() }));
  };
  const exports = [];
  const unrecordedExports = [];
  for (const lead of leads) {
    exports.push(...(await exportsOfLead(lead, 'recorded')));
    unrecordedExports.push(...(await exportsOfLead(lead, 'unrecorded')));
  }
  const deliveries = await app.db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select([
      'webhook_deliveries.ordering_key',
      'webhook_deliveries.event_type',
      'webhook_deliveries.status',
      'webhook_deliveries.delivered_at',
      'webhook_deliveries.created_at',
      'webhook_endpoints.url',
    ])
    .where(
      'webhook_deliveries.ordering_key',
      'in',
      leads.map((lead) => `lead:${Number(lead.id)}`),
    )
    .orderBy('webhook_deliveries.id')
    .execute();
  return {
    exports,
    unrecordedExports,
    deliveries: deliveries.map((row) => ({
      exhibitor: exhibitorOf.get(Number(String(row.ordering_key).slice('lead:'.length))) ?? '',
      url: row.url,
      eventType: row.event_type,
      status: row.status,
      queuedAt: new Date(row.created_at).toISOString(),
      deliveredAt: row.delivered_at ? new Date(row.delivered_at).toISOString() : null,
    })),
  };
}
