import type { FromSchema } from 'json-schema-to-ts';
import { leadConsent } from '../../../engine/lead-consent';
import type { EventRow } from '../../db/schema';
import type { ApiApp } from '../../lib/api-app';
import { eventDate } from '../../../engine/time';
import { LEAD_TOTAL_CAP, leadSearchText } from '../../../engine/leads';
import { sql } from 'kysely';
import { API_BASE } from '../../../engine/constants';
import { normalisePage } from '../../../engine/pagination';
import { providedLabels, providerOf } from '../../../engine/forms/provides';
import { filtersOf, parseLeadQuery, validateQualification, QUALIFICATION_LIMITS, type LeadSort, type Qualification, type SortOrder } from '../../../engine/leads-rules';
import { AppError } from '../../lib/app-error';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import type { AuthContext } from '../../plugins/sessions';
import { deleteBusinessCard } from './business-card';
import { leadsEraseAt } from '../../../engine/retention';
import { leadTotal, listQuery, readListPage, type LeadListRow, type LeadScope, type ListPosition } from './query';
import { leadSchema, listQuerystring, qualificationBody, tagSchema } from './schemas';
import { decodeCursor, parseUpdatedSince, syncBatch } from './sync';
import { LEAD_VISITOR_FIELDS, withoutHiddenFields } from '../../../engine/lead-fields';
import { hiddenVisitorFieldsOf } from '../../lib/lead-fields';
import { ROLES, scopeOf, TAGS, tagsOf } from './shared';

/**
 * The latest scan of a lead, time and scanner taken from the same scan: a later recorded scan may be
 * older than the first one (a phone that was offline), then the first scan is still the latest.
 */
function latestScan(row: LeadListRow & { scanned_by_name: string | null }) {
  const firstAt = new Date(row.scanned_at);
  const laterAt = row.last_scanned_at ? new Date(row.last_scanned_at) : null;
  if (laterAt !== null && row.last_scanned_by !== null && laterAt.getTime() >= firstAt.getTime()) {
    return { count: row.scan_count, lastSeenAt: laterAt.toISOString(), lastScannedBy: { id: row.last_scanned_by, name: row.last_scanned_by_name ?? '' } };
  }
  return { count: row.scan_count, lastSeenAt: firstAt.toISOString(), lastScannedBy: { id: row.scanned_by, name: row.scanned_by_name ?? '' } };
}

/** A timestamptz as the database writes it as text ("2027-03-25 09:41:07.123+00"). */
const DATABASE_TIME_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

/** A list page's keyset cursor: the sort and order it belongs to and the position of the page's last row. */
function encodeListCursor(sort: LeadSort, order: SortOrder, position: ListPosition): string {
  return Buffer.from(JSON.stringify(['list', sort, order, position.value, position.id])).toString('base64url');
}

/** The position of a list cursor given for this sort and order; anything else is a coded bad request. */
function decodeListCursor(cursor: string, sort: LeadSort, order: SortOrder): ListPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 5) {
      const [kind, cursorSort, cursorOrder, at, id] = value as unknown[];
      const valueFits = typeof at === 'string' && at.length <= 1000 && !at.includes('\u0000') && (sort !== 'scannedAt' || DATABASE_TIME_TEXT.test(at));
      if (kind === 'list' && cursorSort === sort && cursorOrder === order && valueFits && Number.isSafeInteger(id) && (id as number) >= 0) return { value: at, id: id as number };
    }
  } catch {
    // Not base64url JSON: refused below.
  }
  throw new AppError('leadCursorInvalid');
}

// LD2-LD3: the lead list with its filter options, a lead's detail and its qualification.
function leadOut(
  row: LeadListRow & { scanned_by_name: string | null },
  extra: { updated_at?: Date | null; card?: { id: string; original_name: string; size: number; content_type: string } | null } = {},
) {
  return {
    id: Number(row.id),
    badgeCode: row.badge_code,
    badgeKnown: row.badge_known,
    visitorName: row.visitor_name,
    salutation: row.salutation,
    company: row.company,
    businessNature: row.business_nature,
    jobTitle: row.job_title,
    country: row.country,
    mobile: row.mobile,
    email: row.email,
    phone: row.phone,
    address: row.address,
    notes: row.notes,
    leadType: row.lead_type,
    temperature: row.temperature,
    followUp: row.follow_up,
    scannedBy: { id: row.scanned_by, name: row.scanned_by_name ?? '' },
    scannedAt: new Date(row.scanned_at).toISOString(),
    scans: latestScan(row),
    updatedAt: extra.updated_at ? new Date(extra.updated_at).toISOString() : null,
    tagAnswers: (row.tag_answers ?? {}) as Record<string, string[]>,
    interestedProducts: (row.interested_products ?? []) as string[],
    businessCard: extra.card ? { id: extra.card.id, name: extra.card.original_name, size: extra.card.size, type: extra.card.content_type } : null,
    consent: leadConsent(row.consent_source, row.consent_withdrawn_at),
  };
}

export default async function leadRoutes(app: ApiApp) {
  const config = app.config;
  const base = `${API_BASE}/leads`;

  // ---- LD2: list ------------------------------------------------------------------------------

  app.get(
    base,
    {
      config: { screen: 'leads', roles: [...ROLES], apiKey: 'leads:read' },
      schema: {
        tags: TAGS,
        summary: 'LD2: one page of leads, filtered and sorted (a team user sees the leads it scanned); with updatedSince or cursor, the incremental sync',
        description: `Pagination as spec §9: page (default 1), limit 10/20/30/50 (default 20), total; a page past the end answers page 1.

**Incremental sync** (an exhibitor's API key with scope \`leads:read\`, or a signed-in user): pass \`updatedSince\` for the first call (or neither parameter with \`cursor\` absent to start from the beginning by sending \`updatedSince=1970-01-01T00:00:00Z\`), then the answer's \`next\` as \`cursor\` until \`hasMore\` is false; keep the last \`next\` and pass it again later to get only what changed since. Leads come in the order they last changed (created, scanned again, qualified), \`batchSize\` at a time; \`page\`, \`limit\`, \`sort\` and \`order\` are not used, filters are; \`total\` counts the leads left from this position, this answer's included.

Guarantee: every lead is answered at least once after each change of it, with its state at the time of the read, and the same change never twice; a lead changed while you page comes again later, once, with its new state. A change still being written is answered once it is committed (the sync never moves past a write in flight). Erased leads are not answered again.`,
        querystring: listQuerystring,
        response: {
          200: envelope({
            type: 'object',
            properties: {
              items: { type: 'array', items: leadSchema },
              total: { type: 'integer', description: 'Leads that match; when `totalIsEstimate`, more than this many do' },
              totalIsEstimate: { type: 'boolean', description: 'True when `total` is not a count (see `totalKind`; ask `exactTotal=true` for the count)' },
              totalKind: {
                type: 'string',
                enum: ['exact', 'about', 'moreThan'],
                description:
                  "`exact`: counted; `about`: estimated from each filter's own count (several filters together); `moreThan`: a keyword's matches counted up to 1,000, more match",
              },
              page: { type: 'integer' },
              limit: { type: 'integer' },
              utcOffsetMinutes: { type: 'integer', description: "The event's offset: times are shown in UTC plus it" },
              eraseAt: {
                type: ['string', 'null'],
                description: "When the organiser's retention period ends and these leads are erased (export them before); null = kept",
              },
              next: {
                type: ['string', 'null'],
                description:
                  'Sync mode: the cursor to pass next (also later, for what changes after). Page mode: pass it as `after` (same filters, sort and order) for the page that follows this one by keyset, stable while leads are added; null when no page follows',
              },
              hasMore: { type: 'boolean', description: 'Sync mode: more leads are ready now (call again with `next`); page mode: pages follow this one' },
            },
            required: ['items', 'total', 'totalIsEstimate', 'totalKind', 'page', 'limit', 'utcOffsetMinutes', 'eraseAt', 'next', 'hasMore'],
            additionalProperties: false,
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      const query = parseLeadQuery(request.query);
      const filters = filtersOf(query);
      const eraseAt = leadsEraseAt(eventOf(auth))?.toISOString() ?? null;
      const hidden = await hiddenVisitorFieldsOf(app.db, eventOf(auth).id);
      if (request.query.updatedSince !== undefined || request.query.cursor !== undefined) {
        const batch = await syncBatch(app.db, app.dbEngine, {
          scope,
          filters,
          updatedSince: request.query.updatedSince !== undefined ? parseUpdatedSince(request.query.updatedSince) : undefined,
          after: request.query.cursor !== undefined ? decodeCursor(request.query.cursor) : undefined,
          limit: request.query.batchSize ?? 500,
        });
        return ok({
          items: batch.rows.map((row) => withoutHiddenFields(leadOut(row, { updated_at: row.updated_at }), hidden)),
          total: batch.remaining,
          totalIsEstimate: false,
          totalKind: 'exact' as const,
          page: 1,
          limit: request.query.batchSize ?? 500,
          utcOffsetMinutes: scope.offsetMinutes,
          eraseAt,
          next: batch.next,
          hasMore: batch.hasMore,
        });
      }
      const position = request.query.after !== undefined ? decodeListCursor(request.query.after, query.sort, query.order) : undefined;
      const { total, kind, matchIds, firstMatchIds } = await leadTotal(app.db, scope, filters, {
        exact: request.query.exactTotal === true,
        keywordByIndex: app.dbEngine === 'pglite',
        pageOrder: position ? undefined : { sort: query.sort, order: query.order },
      });
      // A keyset page (`after`) has no page number: it is read as page 1 is, from its position.
      const { page, limit } = position ? { page: 1, limit: query.limit } : normalisePage({ page: query.page, limit: query.limit }, total);
      const read =
        total === 0
          ? []
          : await readListPage(app.db, scope, filters, query.sort, query.order, position, {
              fewMatches: kind !== 'moreThan' && total <= LEAD_TOTAL_CAP,
              matchIds,
              firstMatchIds,
              limit: limit + 1,
              offset: position ? 0 : (page - 1) * limit,
            });
      const rows = read.slice(0, limit);
      const last = rows[rows.length - 1];
      const more = read.length > limit;
      return ok({
        items: rows.map((row) => withoutHiddenFields(leadOut(row), hidden)),
        total,
        totalIsEstimate: kind !== 'exact',
        totalKind: kind,
        page,
        limit,
        utcOffsetMinutes: scope.offsetMinutes,
        eraseAt,
        next: more && last ? encodeListCursor(query.sort, query.order, { value: last.sort_value, id: Number(last.id) }) : null,
        hasMore: position ? more : page * limit < total || more,
      });
    },
  );

  app.get(
    `${base}/options`,
    {
      config: { screen: 'leads', roles: [...ROLES], device: true },
      schema: {
        tags: TAGS,
        summary: 'LD2: what the list filters offer: who scanned, countries/regions present, event days, custom tags',
        response: {
          200: envelope({
            type: 'object',
            properties: {
              users: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { id: { type: 'integer' }, name: { type: 'string' }, role: { type: 'string', enum: [...ROLES] } },
                  required: ['id', 'name', 'role'],
                  additionalProperties: false,
                },
              },
              countries: { type: 'array', items: { type: 'string' } },
              eventDays: { type: 'object', properties: { first: { type: 'string' }, last: { type: 'string' } }, required: ['first', 'last'], additionalProperties: false },
              utcOffsetMinutes: { type: 'integer' },
              tags: { type: 'array', items: tagSchema },
            },
            required: ['users', 'countries', 'eventDays', 'utcOffsetMinutes', 'tags'],
            additionalProperties: false,
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      let users = app.db
        .selectFrom('users')
        .select(['id', 'display_name as name', 'role'])
        .where('participation_id', '=', scope.participationId)
        .where('role', 'in', ROLES)
        .orderBy('role')
        .orderBy('display_name');
      if (scope.onlyScannedBy !== undefined) users = users.where('id', '=', scope.onlyScannedBy);
      let countries = app.db
        .selectFrom('lead_rollup')
        .select('key')
        .where('participation_id', '=', scope.participationId)
        .where('dimension', '=', 'country')
        .where('key', '!=', '')
        .groupBy('key')
        .having(sql<boolean>`sum(leads) > 0`)
        .orderBy('key');
      if (scope.onlyScannedBy !== undefined) {
        // The rollup has no country per user: a team user's own leads are few, read them.
        countries = app.db
          .selectFrom('leads')
          .select('country as key')
          .where('participation_id', '=', scope.participationId)
          .where('scanned_by', '=', scope.onlyScannedBy)
          .where('country', '!=', '')
          .groupBy('country')
          .orderBy('country') as never;
      }
      const [userRows, countryRows, tags] = [await users.execute(), await countries.execute(), await tagsOf(app.db, scope.participationId)];
      const day = (date: Date) => eventDate(date, scope.offsetMinutes);
      return ok({
        // The query selects only the scanning roles.
        users: userRows.map((row) => ({ ...row, role: row.role as (typeof ROLES)[number] })),
        countries: countryRows.map((row) => row.key),
        eventDays: showDayRange(eventOf(auth), day),
        utcOffsetMinutes: scope.offsetMinutes,
        tags,
      });
    },
  );

  /**
   * The first and last show day (event time) as the dashboard shows them: the recorded show days,
   * else the days from the event's start to its end (its end may be a move-out day after the show).
   */
  const showDayRange = (event: EventRow, day: (date: Date) => string) => {
    const recorded = (Array.isArray(event.show_days) ? event.show_days : [])
      .map((d) => d.date)
      .filter((date) => /^\d{4}-\d{2}-\d{2}$/.test(date))
      .sort();
    if (recorded.length > 0) return { first: recorded[0]!, last: recorded.at(-1)! };
    return { first: day(event.starts_at), last: day(event.ends_at) };
  };

  // ---- LD2/LD3: detail and qualification --------------------------------------------------------

  const findLead = async (scope: LeadScope, id: number) => {
    const row = await listQuery(app.db, scope, {}, 'scannedAt', 'desc').select(['leads.updated_at']).where('leads.id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('notFound');
    const card = row.business_card
      ? await app.db.selectFrom('uploads').select(['id', 'original_name', 'size', 'content_type']).where('id', '=', row.business_card).executeTakeFirst()
      : null;
    return { row, card: card ?? null };
  };

  const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 9007199254740991 } } } as const;
  const detailAnswer = envelope({
    type: 'object',
    properties: {
      lead: leadSchema,
      hiddenFields: {
        type: 'array',
        items: { type: 'string', enum: [...LEAD_VISITOR_FIELDS] },
        description: 'The visitor fields the organiser keeps from exhibitors: answered empty, not shown',
      },
      tags: { type: 'array', items: tagSchema },
      products: { type: 'array', items: { type: 'string' }, description: "The exhibitor's products (its S02 product highlights): what a visitor may be interested in" },
      utcOffsetMinutes: { type: 'integer' },
    },
    required: ['lead', 'hiddenFields', 'tags', 'products', 'utcOffsetMinutes'],
    additionalProperties: false,
  });

  /**
   * LD2: what a visitor may be interested in: the labels of the list a form provides as
   * `leadInterests` (forms.yaml; S02's product names), submitted copy first, else the draft.
   */
  const productsOf = async (participationId: number): Promise<string[]> => {
    const provider = providerOf(app.forms.current().definitions, 'leadInterests');
    if (!provider) return [];
    const entry = await app.formEntries.find(participationId, provider.form.id);
    return providedLabels(provider.provided, entry?.submitted_data ?? entry?.data);
  };

  const detail = async (auth: AuthContext, id: number) => {
    const scope = scopeOf(auth);
    const { row, card } = await findLead(scope, id);
    const [tags, products, hidden] = [await tagsOf(app.db, scope.participationId), await productsOf(scope.participationId), await hiddenVisitorFieldsOf(app.db, eventOf(auth).id)];
    return { lead: withoutHiddenFields(leadOut(row, { updated_at: row.updated_at, card }), hidden), hiddenFields: hidden, tags, products, utcOffsetMinutes: scope.offsetMinutes };
  };

  app.get(
    `${base}/:id`,
    {
      // Its roles (no contractor) come from the leadDetail screen of screens.yaml.
      config: { screen: 'leadDetail', apiKey: 'leads:read' },
      schema: {
        tags: TAGS,
        summary: 'LD2: one lead with every field of spec §3, and the custom tags it can be qualified with',
        description: "Another exhibitor's lead (or, for a team user, a lead it did not scan) answers code 404 like an unknown id.",
        params: idParams,
        response: { 200: detailAnswer },
      },
    },
    async (request) => ok(await detail(requireAuth(request), request.params.id)),
  );

  /** What a qualification request may change: its body as the schema reads it. */
  type QualificationChanges = FromSchema<typeof qualificationBody>;

  /**
   * LD3: qualify a lead with the fields sent; a field left out keeps its stored value (tag
   * answers per tag: a tag left out keeps its answers). The result is checked whole.
   */
  const qualify = async (auth: AuthContext, id: number, body: QualificationChanges) => {
    const scope = scopeOf(auth);
    const { row } = await findLead(scope, id);
    const stored = (row.tag_answers ?? {}) as Record<string, string[]>;
    const has = (field: keyof QualificationChanges) => Object.hasOwn(body, field) && body[field] !== undefined;
    const input: Qualification = {
      leadType: has('leadType') ? body.leadType! : row.lead_type,
      temperature: has('temperature') ? body.temperature! : row.temperature,
      followUp: has('followUp') ? body.followUp! : row.follow_up,
      notes: has('notes') ? body.notes! : row.notes,
      tagAnswers: has('tagAnswers') ? { ...stored, ...body.tagAnswers } : stored,
      businessCard: has('businessCard') ? body.businessCard! : row.business_card,
      visitorName: has('visitorName') ? body.visitorName : row.visitor_name,
      company: has('company') ? body.company : row.company,
    };
    const tags = await tagsOf(app.db, scope.participationId);
    const changed = new Set((Object.keys(input) as Array<keyof Qualification>).filter((field) => has(field)));
    const fields: Record<string, string> = { ...validateQualification(input, { badgeKnown: row.badge_known, tags, stored, changed }) };
    // Any card id sent must be an upload of this exhibitor's, the empty one too (null removes the card).
    if (input.businessCard !== null && input.businessCard !== row.business_card) {
      const upload = await app.db
        .selectFrom('uploads')
        .select(['id'])
        .where('id', '=', input.businessCard)
        .where('purpose', '=', 'businessCard')
        .where('participation_id', '=', scope.participationId)
        .executeTakeFirst();
      if (!upload) fields.businessCard = 'leads.validation.businessCard';
    }
    const firstField = Object.keys(fields)[0];
    if (firstField) {
      throw new AppError('validationFailed', { fields }, { limit: QUALIFICATION_LIMITS[firstField] ?? 0 }, fields[firstField]);
    }
    const tagAnswers = Object.fromEntries(Object.entries(input.tagAnswers).filter(([, chosen]) => chosen.length > 0));
    await app.db
      .updateTable('leads')
      .set({
        lead_type: input.leadType,
        temperature: input.temperature,
        follow_up: input.followUp,
        notes: input.notes.trim(),
        tag_answers: JSON.stringify(tagAnswers),
        business_card: input.businessCard,
        // LD2: a visitor without a known badge, recorded from a business card photo.
        ...(!row.badge_known && input.businessCard ? { consent_source: 'businessCard' } : {}),
        ...(has('interestedProducts') ? { interested_products: JSON.stringify(body.interestedProducts!.map((p) => p.trim()).filter(Boolean)) } : {}),
        // A lead of an unknown badge takes its name and company from the exhibitor: its folded
        // keyword text follows them.
        ...(row.badge_known
          ? {}
          : {
              visitor_name: (input.visitorName ?? '').trim(),
              company: (input.company ?? '').trim(),
              search_folded: leadSearchText({ visitorName: (input.visitorName ?? '').trim(), company: (input.company ?? '').trim(), email: row.email, badgeCode: row.badge_code }),
            }),
        updated_at: new Date(),
        updated_by: auth.user.id,
      })
      .where('id', '=', Number(row.id))
      .where('participation_id', '=', scope.participationId)
      .execute();
    // A card replaced or removed is deleted with its file (kept if anything still refers to it).
    if (row.business_card && row.business_card !== input.businessCard) await deleteBusinessCard(app.db, config.dataDir, row.business_card);
    await app.webhooks.emit({ type: 'lead.updated', leadIds: [Number(row.id)] });
    return detail(auth, Number(row.id));
  };

  const qualifyDescription =
    'Refused with code 601 `validationFailed` when a rule fails: `data.fields` maps each field to the locale key of its message, `msg` is the first message in the caller\'s language (e.g. "Please select the lead type."). Visitor name and company are read, and required, only when the badge was unknown. Tag answers must be choices of the participation\'s custom tags; a choice the exhibitor has removed since it was stored stays acceptable on that lead until it is unticked.';
  const partialNote =
    '**Only what is sent changes.** A field left out keeps its stored value: notes, tag answers, business card and interested products are never erased by omission. `tagAnswers` is merged per tag: a tag left out keeps its answers, a tag sent with `[]` is cleared. To clear a field send it empty: `notes: ""`, `businessCard: null` (the card and its file are deleted), `interestedProducts: []`. Only the fields sent are checked: a lead can be qualified step by step (`{"temperature":"warm"}` alone on a lead not qualified yet), but a required field (lead type, temperature, follow-up) cannot be cleared, and a lead whose badge was unknown needs its visitor name and company with any of those three. A lead counts as qualified once lead type, temperature and follow-up are all set.';

  // PATCH is also the scanner's: a scan qualified after it was sent is saved with the device
  // token (its scope, the caller's participation, is the same as its user's session).
  const qualifyRoute = (summary: string, description: string, device = false) => ({
    config: { screen: 'leadDetail' as const, device },
    schema: { tags: TAGS, summary, description, params: idParams, body: qualificationBody, response: { 200: detailAnswer } },
  });

  app.patch(
    `${base}/:id`,
    qualifyRoute(
      'LD3: qualify a lead (partial update): type, temperature, follow-up, notes, custom tag answers, business card, interests',
      `${partialNote}\n\n${qualifyDescription}\n\nA scanning device's token may call it (for the leads its user may see).`,
      true,
    ),
    async (request) => ok(await qualify(requireAuth(request), request.params.id, request.body)),
  );

  app.put(
    `${base}/:id`,
    qualifyRoute(
      'LD3: qualify a lead: the same as PATCH (kept for existing clients)',
      `PUT behaves exactly like \`PATCH /oga/leads/{id}\`: it is not a full replacement. ${partialNote}\n\n${qualifyDescription}`,
    ),
    async (request) => ok(await qualify(requireAuth(request), request.params.id, request.body)),
  );
}
