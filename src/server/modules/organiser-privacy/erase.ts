import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { fileKey } from '../../plugins/storage';
import { eventOf } from '../../plugins/auth';
import type { AuthContext } from '../../plugins/sessions';

// Erasing visitors' data. Leads go with their business cards (upload rows and files)
// and with every lead export of the participations concerned (an export file cannot be edited,
// and it holds the erased leads). Files are removed after their rows: a crash in between leaves
// files that the orphan sweep removes, never a row pointing at nothing.

export interface ErasureCounts {
  leads: number;
  businessCards: number;
  exports: number;
  participations: number;
}

/** Erases the leads chosen by `leadIds` (all in the given participations) and what holds them. */
export async function eraseLeads(app: FastifyInstance, leadIds: number[], participationIds: number[]): Promise<ErasureCounts> {
  const counts: ErasureCounts = { leads: 0, businessCards: 0, exports: 0, participations: participationIds.length };
  if (participationIds.length === 0) return counts;
  const files: string[] = [];
  await app.db.transaction().execute(async (trx) => {
    for (let at = 0; at < leadIds.length; at += 1000) {
      const batch = leadIds.slice(at, at + 1000);
      const cards = await trx.selectFrom('leads').select('business_card').where('id', 'in', batch).where('business_card', 'is not', null).execute();
      const cardIds = cards.map((row) => row.business_card!);
      // The exhibitors' webhooks hear of the erasure with the erasure itself (the lead's id only).
      await app.webhooks.emit({ type: 'lead.erased', leadIds: batch }, trx);
      const deleted = await trx.deleteFrom('leads').where('id', 'in', batch).executeTakeFirst();
      counts.leads += Number(deleted.numDeletedRows);
      if (cardIds.length > 0) {
        const removed = await trx.deleteFrom('uploads').where('id', 'in', cardIds).returning('id').execute();
        counts.businessCards += removed.length;
        files.push(...removed.map((row) => fileKey.upload(row.id)));
      }
    }
    const exports = await trx.deleteFrom('lead_exports').where('participation_id', 'in', participationIds).returning('storage_name').execute();
    counts.exports = exports.length;
    files.push(...exports.map((row) => fileKey.leadExport(row.storage_name)));
  });
  for (const key of files) await app.storage.delete(key).catch((error) => app.log.warn({ key, err: error }, 'erased file left for the orphan sweep'));
  return counts;
}

/** The leads of one visitor (by badge code or e-mail) in the given events, with their participations. */
export async function visitorLeads(app: FastifyInstance, eventIds: number[], who: { badgeCode?: string; email?: string }) {
  if (eventIds.length === 0 || (!who.badgeCode && !who.email)) return [];
  return app.db
    .selectFrom('leads')
    .innerJoin('participations', 'participations.id', 'leads.participation_id')
    .innerJoin('exhibitors', 'exhibitors.id', 'participations.exhibitor_id')
    .selectAll('leads')
    .select(['exhibitors.name as exhibitor', 'participations.event_id'])
    .where('participations.event_id', 'in', eventIds)
    .where((eb) =>
      eb.or([...(who.badgeCode ? [eb('leads.badge_code', '=', who.badgeCode)] : []), ...(who.email ? [eb(sql`lower(leads.email)`, '=', who.email.toLowerCase())] : [])]),
    )
    .orderBy('leads.id')
    .execute();
}

/** The organiser's events: its organisation's, or its own event. */
export async function organiserEvents(app: FastifyInstance, auth: AuthContext): Promise<number[]> {
  const organisationId = auth.user.organisation_id ?? eventOf(auth).organisation_id;
  if (organisationId === null) return [eventOf(auth).id];
  return (await app.db.selectFrom('events').select('id').where('organisation_id', '=', organisationId).execute()).map((row) => row.id);
}

export const visitorBody = {
  type: 'object',
  additionalProperties: false,
  description: 'The visitor, by badge code or e-mail address (or both)',
  properties: {
    badgeCode: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f]+$' },
    email: { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' },
  },
  anyOf: [{ required: ['badgeCode'] }, { required: ['email'] }],
} as const;

/** The visitor of a request body, trimmed (empty = not given). */
export const visitorOf = (body: { badgeCode?: string; email?: string }) => ({
  badgeCode: body.badgeCode?.trim() || undefined,
  email: body.email?.trim() || undefined,
});
