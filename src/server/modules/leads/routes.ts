import type { ApiApp } from '../../lib/api-app';
import { eventDate, toEventClock } from '../../../engine/time';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { API_BASE } from '../../../engine/constants';
import { normalisePage } from '../../../engine/pagination';
import { SCAN_BATCH_MAX } from '../../../engine/leads';
import { providedLabels, providerOf } from '../../../engine/forms/provides';
import {
  filtersOf,
  parseLeadQuery,
  validateQualification,
  QUALIFICATION_LIMITS,
  type LeadSort,
  type Qualification,
  type SortOrder,
  type TagDefinition,
} from '../../../engine/leads-rules';
import type { Config } from '../../config';
import type { Database } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { contentDisposition } from '../../lib/content-disposition';
import { envelope } from '../../lib/schemas';
import { eventOf, requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/errors';
import { pageQuerySchema, pageSchema } from '../../lib/paging';
import { exportsPage, visibleExports } from '../../lib/lead-exports-list';
import type { AuthContext } from '../../plugins/sessions';
import { deleteBusinessCard } from './business-card';
import { writeExport } from './export';
import { leadsEraseAt } from '../../../engine/retention';
import { fileKey } from '../../plugins/storage';
import { leadTotal, listQuery, type LeadListRow, type LeadScope } from './query';
import { ingestScans, type ScanInput } from './scans';
import { exportRecordSchema } from '../../lib/lead-exports-list';
import { exportBody, leadSchema, listQuerystring, qualificationBody, scanBatchAnswer, scanBatchBody, scanSchema, tagSchema } from './schemas';
import type { Kysely } from 'kysely';

// LD1-LD4: scans from the mobile app, the lead list, a lead's detail and qualification, and
// exports with their download list. Every query is scoped to the caller's participation (and,
// for a team user, to the leads it scanned): another exhibitor's ids answer 404, like unknown ones.

const ROLES = ['exhibitor', 'team_user'] as const;
const TAGS = ['leads'];

function scopeOf(auth: AuthContext): LeadScope {
  if (!auth.participation) throw new AppError('notFound');
  return {
    participationId: auth.participation.id,
    offsetMinutes: eventOf(auth).utc_offset_minutes,
    onlyScannedBy: auth.user.role === 'team_user' ? auth.user.id : undefined,
  };
}

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
    scans: {
      count: row.scan_count,
      lastSeenAt: new Date(Math.max(new Date(row.scanned_at).getTime(), row.last_scanned_at ? new Date(row.last_scanned_at).getTime() : 0)).toISOString(),
      lastScannedBy: row.last_scanned_by ? { id: row.last_scanned_by, name: row.last_scanned_by_name ?? '' } : { id: row.scanned_by, name: row.scanned_by_name ?? '' },
    },
    updatedAt: extra.updated_at ? new Date(extra.updated_at).toISOString() : null,
    tagAnswers: (row.tag_answers ?? {}) as Record<string, string[]>,
    interestedProducts: (row.interested_products ?? []) as string[],
    businessCard: extra.card ? { id: extra.card.id, name: extra.card.original_name, size: extra.card.size, type: extra.card.content_type } : null,
  };
}

async function tagsOf(db: Kysely<Database>, participationId: number): Promise<TagDefinition[]> {
  const rows = await db.selectFrom('custom_tags').select(['id', 'name', 'choices']).where('participation_id', '=', participationId).orderBy('position').orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, name: row.name, choices: Array.isArray(row.choices) ? (row.choices as string[]) : [] }));
}

/** Time of an export in event time, for its file name: 20270317-1015. */
function stamp(now: Date, offsetMinutes: number): string {
  return toEventClock(now, offsetMinutes).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
}

export default async function leadsRoutes(app: ApiApp, { config }: { config: Config }) {
  const base = `${API_BASE}/leads`;

  const scannerOf = (auth: AuthContext) => {
    if (!auth.participation) throw new AppError('notFound');
    return { userId: auth.user.id, role: auth.user.role, participationId: auth.participation.id, eventId: eventOf(auth).id, offsetMinutes: eventOf(auth).utc_offset_minutes };
  };

  // ---- LD1: scans -----------------------------------------------------------------------------

  const scanDescription = `For the scanning app. Log in first with \`POST /oga/auth/login\` \`{ "account": "…", "password": "…" }\` (an exhibitor or a team user; module Leadgrab), then get a long-lived device token with \`POST /oga/leads/devices\` \`{ "name": "Booth iPad 1" }\` and send \`Authorization: Bearer <token>\` with every scan request: the app keeps the token, never the password (the exhibitor sees and revokes devices on its Devices page).

**Resend semantics.** Every scan carries the app's own \`clientScanId\`, made once when the badge is read. Sending the same id again (a retry after a timeout, an offline queue synced twice) never makes a second lead: the answer says \`duplicate\` with \`reason: "resend"\` and the stored lead's id. So the app can resend anything it is not sure about, and drops a scan from its queue once the answer says \`created\` or \`duplicate\`.

**One lead per visitor.** A badge that already is a lead of the exhibitor (scanned before by anyone of it: the exhibitor or any team user) makes no second lead: the scan answers \`duplicate\` with \`reason: "alreadyScanned"\` and the stored lead's id, and is recorded on that lead (scan count, last seen, who; see \`scans\` on GET /oga/leads/{id}). Totals, lists, exports and the dashboard count the visitor once; a team user's quota counts only the leads it made.

**Unknown badges.** A code that matches no visitor of the event is kept (\`badgeKnown: false\`); the exhibitor completes the visitor's name and company when qualifying it.

**Quota.** A team user may have a lead quota. New scans beyond it are answered one by one with status \`quotaNotEnough\` and not stored; the scans of the same batch that fit are stored (a batch is accepted partially, in the order sent; resends never count). When a request stores nothing because the quota is used up, the envelope itself is code 601 with error \`quotaNotEnough\` ("Quota is not enough!") and the same per-scan results in \`data\`.

**Errors.** A deactivated user's session is refused (code 401): log in again, which then says the account is deactivated. Body code 403: the account has no Leadgrab module. A malformed request (missing field, bad id, more than ${SCAN_BATCH_MAX} scans) is code 601 \`badRequest\` with HTTP 400 and stores nothing.`;

  const scanHandler = async (auth: AuthContext, scans: ScanInput[]) => {
    const outcome = await ingestScans(app.db, scannerOf(auth), scans);
    if (outcome.created === 0 && outcome.refusedForQuota > 0) throw new AppError('quotaNotEnough', outcome);
    return outcome;
  };

  app.post(
    `${base}/scans`,
    {
      config: { screen: 'leads', roles: [...ROLES], device: true },
      schema: {
        tags: TAGS,
        summary: `LD1: send a batch of scans (1-${SCAN_BATCH_MAX}), e.g. the app's offline queue`,
        description: `${scanDescription}\n\nThe answer has one result per scan, in the order sent. Batches of about 100 are a good size.`,
        body: scanBatchBody,
        response: {
          200: {
            ...envelope(scanBatchAnswer),
            examples: [
              {
                code: 200,
                msg: 'ok',
                data: {
                  results: [
                    {
                      clientScanId: '7f1c2a9e-4b1d-4c1e-9a52-0c8e1b7d3f10',
                      status: 'created',
                      leadId: 1201,
                      badgeKnown: true,
                      visitorName: 'Wei Ming Tan',
                      company: 'Golden Harvest Foods Sdn. Bhd.',
                    },
                    {
                      clientScanId: '0b6f1d33-8e0a-4a8f-bf0e-5d2c7a9e6a21',
                      status: 'duplicate',
                      reason: 'alreadyScanned',
                      leadId: 1187,
                      badgeKnown: true,
                      visitorName: 'Siti Hassan',
                      company: 'Lotus Trading PT',
                    },
                    { clientScanId: 'c3d9e1a0-2f4b-4e7c-8a11-9b0d5e6f7a88', status: 'created', leadId: 1202, badgeKnown: false, visitorName: '', company: '' },
                  ],
                  created: 2,
                  duplicates: 1,
                  refusedForQuota: 0,
                  invalid: 0,
                  quota: 500,
                  remaining: 312,
                },
              },
            ],
          },
        },
      },
    },
    async (request) => ok(await scanHandler(requireAuth(request), request.body.scans)),
  );

  app.post(
    `${base}/scan`,
    {
      config: { screen: 'leads', roles: [...ROLES], device: true },
      schema: {
        tags: TAGS,
        summary: 'LD1: send one scan as soon as the badge is read',
        description: `${scanDescription}\n\nThe answer has the same shape as a batch's (\`results\` holds the one scan's result), so the app reads both the same way. A scan refused for the quota answers code 601 \`quotaNotEnough\`.`,
        body: scanSchema,
        response: {
          200: {
            ...envelope(scanBatchAnswer),
            examples: [
              {
                code: 200,
                msg: 'ok',
                data: {
                  results: [
                    {
                      clientScanId: '7f1c2a9e-4b1d-4c1e-9a52-0c8e1b7d3f10',
                      status: 'created',
                      leadId: 1201,
                      badgeKnown: true,
                      visitorName: 'Wei Ming Tan',
                      company: 'Golden Harvest Foods Sdn. Bhd.',
                    },
                  ],
                  created: 1,
                  duplicates: 0,
                  refusedForQuota: 0,
                  invalid: 0,
                  quota: 500,
                  remaining: 311,
                },
              },
              {
                code: 200,
                msg: 'ok',
                data: {
                  results: [
                    {
                      clientScanId: '5d0e7c21-93aa-4f6b-b1c4-2e8f0a6d9b37',
                      status: 'duplicate',
                      reason: 'alreadyScanned',
                      leadId: 1201,
                      badgeKnown: true,
                      visitorName: 'Wei Ming Tan',
                      company: 'Golden Harvest Foods Sdn. Bhd.',
                    },
                  ],
                  created: 0,
                  duplicates: 1,
                  refusedForQuota: 0,
                  invalid: 0,
                  quota: 500,
                  remaining: 311,
                },
              },
            ],
          },
        },
      },
    },
    async (request) => ok(await scanHandler(requireAuth(request), [request.body])),
  );

  // ---- LD2: list ------------------------------------------------------------------------------

  app.get(
    base,
    {
      config: { screen: 'leads', roles: [...ROLES] },
      schema: {
        tags: TAGS,
        summary: 'LD2: one page of leads, filtered and sorted (a team user sees the leads it scanned)',
        description: 'Pagination as spec §9: page (default 1), limit 10/20/30/50 (default 20), total; a page past the end answers page 1.',
        querystring: listQuerystring,
        response: {
          200: envelope({
            type: 'object',
            properties: {
              items: { type: 'array', items: leadSchema },
              total: { type: 'integer', description: 'Leads that match; when `totalIsEstimate`, more than this many do' },
              totalIsEstimate: { type: 'boolean', description: 'Issue 15: true when `total` is not a count (see `totalKind`; ask `exactTotal=true` for the count)' },
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
                description: "Issue 14: when the organiser's retention period ends and these leads are erased (export them before); null = kept",
              },
            },
          }),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      const query = parseLeadQuery(request.query);
      const filters = filtersOf(query);
      const { total, kind } = await leadTotal(app.db, scope, filters, { exact: request.query.exactTotal === true });
      const { page, limit } = normalisePage({ page: query.page, limit: query.limit }, total);
      const rows =
        total === 0
          ? []
          : await listQuery(app.db, scope, filters, query.sort, query.order)
              .limit(limit)
              .offset((page - 1) * limit)
              .execute();
      return ok({
        items: rows.map((row) => leadOut(row)),
        total,
        totalIsEstimate: kind !== 'exact',
        totalKind: kind,
        page,
        limit,
        utcOffsetMinutes: scope.offsetMinutes,
        eraseAt: leadsEraseAt(eventOf(auth))?.toISOString() ?? null,
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
              users: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, role: { type: 'string' } } } },
              countries: { type: 'array', items: { type: 'string' } },
              eventDays: { type: 'object', properties: { first: { type: 'string' }, last: { type: 'string' } } },
              utcOffsetMinutes: { type: 'integer' },
              tags: { type: 'array', items: tagSchema },
            },
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
        .where('role', 'in', ['exhibitor', 'team_user'])
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
        users: userRows,
        countries: countryRows.map((row) => row.key),
        eventDays: { first: day(eventOf(auth).starts_at), last: day(eventOf(auth).ends_at) },
        utcOffsetMinutes: scope.offsetMinutes,
        tags,
      });
    },
  );

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
  // Export ids are `serial` (integer), unlike lead ids (bigint): bounded like every integer by the input guard.
  const exportIdParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;
  const detailAnswer = envelope({
    type: 'object',
    properties: {
      lead: leadSchema,
      tags: { type: 'array', items: tagSchema },
      products: { type: 'array', items: { type: 'string' }, description: "The exhibitor's products (its S02 product highlights): what a visitor may be interested in" },
      utcOffsetMinutes: { type: 'integer' },
    },
  });

  /**
   * LD2: what a visitor may be interested in: the labels of the list a form provides as
   * `leadInterests` (forms.yaml; S02's product names), submitted copy first, else the draft.
   */
  const productsOf = async (participationId: number): Promise<string[]> => {
    const provider = providerOf(app.forms.current().definitions, 'leadInterests');
    if (!provider) return [];
    const entry = await app.db
      .selectFrom('form_entries')
      .select(['data', 'submitted_data'])
      .where('participation_id', '=', participationId)
      .where('form_id', '=', provider.form.id)
      .executeTakeFirst();
    return providedLabels(provider.provided, entry?.submitted_data ?? entry?.data);
  };

  const detail = async (scope: LeadScope, id: number) => {
    const { row, card } = await findLead(scope, id);
    const [tags, products] = [await tagsOf(app.db, scope.participationId), await productsOf(scope.participationId)];
    return { lead: leadOut(row, { updated_at: row.updated_at, card }), tags, products, utcOffsetMinutes: scope.offsetMinutes };
  };

  app.get(
    `${base}/:id`,
    {
      config: { screen: 'leadDetail', roles: [...ROLES] },
      schema: {
        tags: TAGS,
        summary: 'LD2: one lead with every field of spec §3, and the custom tags it can be qualified with',
        description: "Another exhibitor's lead (or, for a team user, a lead it did not scan) answers code 404 like an unknown id.",
        params: idParams,
        response: { 200: detailAnswer },
      },
    },
    async (request) => ok(await detail(scopeOf(requireAuth(request)), request.params.id)),
  );

  type QualificationChanges = Partial<Omit<Qualification, 'notes'>> & { notes?: string; interestedProducts?: string[] };

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
    const fields: Record<string, string> = { ...validateQualification(input, { badgeKnown: row.badge_known, tags, stored }) };
    if (input.businessCard && input.businessCard !== row.business_card) {
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
        ...(has('interestedProducts') ? { interested_products: JSON.stringify(body.interestedProducts!.map((p) => p.trim()).filter(Boolean)) } : {}),
        ...(row.badge_known ? {} : { visitor_name: input.visitorName!.trim(), company: input.company!.trim() }),
        updated_at: new Date(),
        updated_by: auth.user.id,
      })
      .where('id', '=', Number(row.id))
      .where('participation_id', '=', scope.participationId)
      .execute();
    // A card replaced or removed is deleted with its file (kept if anything still refers to it).
    if (row.business_card && row.business_card !== input.businessCard) await deleteBusinessCard(app.db, config.dataDir, row.business_card);
    return detail(scope, Number(row.id));
  };

  const qualifyDescription =
    'Refused with code 601 `validationFailed` when a rule fails: `data.fields` maps each field to the locale key of its message, `msg` is the first message in the caller\'s language (e.g. "Please select the lead type."). Visitor name and company are read, and required, only when the badge was unknown. Tag answers must be choices of the participation\'s custom tags; a choice the exhibitor has removed since it was stored stays acceptable on that lead until it is unticked.';
  const partialNote =
    '**Only what is sent changes.** A field left out keeps its stored value: notes, tag answers, business card and interested products are never erased by omission. `tagAnswers` is merged per tag: a tag left out keeps its answers, a tag sent with `[]` is cleared. To clear a field send it empty: `notes: ""`, `businessCard: null` (the card and its file are deleted), `interestedProducts: []`. The result is checked whole: lead type, temperature and follow-up must be set after the change.';

  const qualifyRoute = (summary: string, description: string) => ({
    config: { screen: 'leadDetail' as const, roles: [...ROLES] },
    schema: { tags: TAGS, summary, description, params: idParams, body: qualificationBody, response: { 200: detailAnswer } },
  });

  app.patch(
    `${base}/:id`,
    qualifyRoute(
      'LD3: qualify a lead (partial update): type, temperature, follow-up, notes, custom tag answers, business card, interests',
      `${partialNote}\n\n${qualifyDescription}`,
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

  // ---- LD4: exports and the data download list -------------------------------------------------

  app.post(
    `${base}/exports`,
    {
      config: { screen: 'leadReport', roles: [...ROLES] },
      schema: {
        tags: TAGS,
        summary: 'LD4: export the filtered leads as CSV or XLSX; the file is kept and listed in the data download list',
        description: "Headers and labels are in the caller's language (Language header), times in event time. Download the file with GET /oga/leads/exports/{id}/file.",
        body: exportBody,
        response: { 200: envelope(exportRecordSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      const filters = filtersOf(parseLeadQuery(request.body.filters ?? {}));
      const { format } = request.body;
      const storageName = `${randomBytes(24).toString('base64url')}.${format}`;
      const key = fileKey.leadExport(storageName);
      const now = new Date();
      const fileName = `leads-${eventOf(auth).code}-${stamp(now, scope.offsetMinutes)}.${format}`;
      // The writer streams into the file store as it goes; the store keeps nothing unless whole.
      const output = new PassThrough();
      const stored = app.storage.put(key, output);
      // A store that fails first (full, unreachable) stops the writer instead of leaving it waiting.
      stored.catch((error: Error) => output.destroy(error));
      let rows: number;
      let size: number;
      try {
        rows = await writeExport({ db: app.db, scope, filters, format, language: request.language, tags: await tagsOf(app.db, scope.participationId), output });
        ({ size } = await stored);
      } catch (error) {
        output.destroy();
        await stored.catch(() => undefined);
        await app.storage.delete(key).catch(() => undefined);
        throw error;
      }
      let record: { id: number };
      try {
        record = await app.db
          .insertInto('lead_exports')
          .values({
            participation_id: scope.participationId,
            user_id: auth.user.id,
            file_name: fileName,
            format,
            filters: JSON.stringify(filters),
            rows,
            size,
            storage_name: storageName,
            created_at: now,
          })
          .returning(['id'])
          .executeTakeFirstOrThrow();
      } catch (error) {
        await app.storage.delete(key).catch(() => undefined);
        throw error;
      }
      return ok({ id: record.id, fileName, format, rows, size, createdAt: now.toISOString(), user: auth.user.display_name });
    },
  );

  app.get(
    `${base}/exports`,
    {
      config: { screen: 'leadReport', roles: [...ROLES] },
      schema: {
        tags: TAGS,
        summary: 'LD4: the data download list (file name, download time, download user), newest first, paginated',
        querystring: pageQuerySchema,
        response: {
          200: envelope(
            pageSchema(exportRecordSchema, {
              utcOffsetMinutes: { type: 'integer' },
              eraseAt: { type: ['string', 'null'], description: 'Issue 14: when these leads and exports are erased; null = kept' },
            }),
          ),
        },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = scopeOf(auth);
      return ok({
        ...(await exportsPage(app.db, scope, request.query)),
        utcOffsetMinutes: scope.offsetMinutes,
        eraseAt: leadsEraseAt(eventOf(auth))?.toISOString() ?? null,
      });
    },
  );

  app.get(
    `${base}/exports/:id/file`,
    {
      config: { screen: 'leadReport', roles: [...ROLES] },
      schema: {
        tags: TAGS,
        summary: 'LD4: download an export again (own participation only; others answer code 404)',
        params: exportIdParams,
        response: {
          200: {
            description: 'The file, as an attachment under its file name',
            content: {
              'text/csv': { schema: { type: 'string', format: 'binary' } },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(requireAuth(request));
      const row = await visibleExports(app.db, scope)
        .select(['lead_exports.storage_name', 'lead_exports.file_name', 'lead_exports.format'])
        .where('lead_exports.id', '=', request.params.id)
        .executeTakeFirst();
      if (!row) throw new AppError('notFound');
      const key = fileKey.leadExport(row.storage_name);
      const file = await app.storage.stat(key);
      const body = file ? await app.storage.get(key) : null;
      if (!file || !body) {
        request.log.error({ exportId: request.params.id, reqId: request.id }, 'export file missing from the file store');
        throw new AppError('notFound');
      }
      return reply
        .header('Content-Type', row.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Length', file.size)
        .header('Content-Disposition', contentDisposition('attachment', row.file_name))
        .header('X-Content-Type-Options', 'nosniff')
        .send(body);
    },
  );
}

export type { LeadSort, SortOrder };
